#!/usr/bin/env python3
"""The human side of games against the computer, for bench/computer_latency.sh.

Registers an account, creates GAMES games against the computer (hard, Braveheart, as
Scotland) and plays Scotland's seat in each over its WebSocket: whenever a view offers legal
actions, a random one goes back THINK seconds later, as a person would answer. With enough
games the computer, awaited again in one game while it thinks in another, thinks for the
whole run, and the human side adds little load of its own. Python's standard library only
(HTTP/1.1 and RFC 6455 framing by hand, no compression, whole views). Prints one JSON line:
the actions sent, the views received and the errors.
"""
import argparse
import base64
import heapq
import http.client
import json
import os
import random
import select
import socket
import struct
import time


def open_socket(args):
    if args.unix:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(args.unix)
        return sock
    return socket.create_connection(("127.0.0.1", args.port))


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost")
        self.unix_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.unix_path)


def post(args, path, body, cookie=None):
    """POSTs JSON; returns (status, parsed body, the session cookie set, if any)."""
    if args.unix:
        conn = UnixHTTPConnection(args.unix)
    else:
        conn = http.client.HTTPConnection("127.0.0.1", args.port)
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    conn.request("POST", path, json.dumps(body), headers)
    answer = conn.getresponse()
    data = answer.read()
    set_cookie = answer.getheader("Set-Cookie")
    conn.close()
    return answer.status, json.loads(data or b"null"), set_cookie and set_cookie.split(";")[0]


class WebSocket:
    """A client WebSocket: masked text frames out, whole messages in (RFC 6455)."""

    def __init__(self, args, path, cookie):
        self.sock = open_socket(args)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             f"Sec-WebSocket-Version: 13\r\nCookie: {cookie}\r\n\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("the server closed the upgrade")
            data += chunk
        head, self.buffer = data.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"upgrade refused: {head[:200]!r}")
        self.parts = b""

    def fileno(self):
        return self.sock.fileno()

    def _send_frame(self, opcode, data):
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(head + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def receive(self):
        """Reads what arrived; returns the whole text messages it completed."""
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise EOFError("the server closed the connection")
        self.buffer += chunk
        messages = []
        while len(self.buffer) >= 2:
            first, second = self.buffer[0], self.buffer[1]
            length, offset = second & 0x7F, 2
            if length == 126:
                if len(self.buffer) < 4:
                    break
                length, offset = struct.unpack("!H", self.buffer[2:4])[0], 4
            elif length == 127:
                if len(self.buffer) < 10:
                    break
                length, offset = struct.unpack("!Q", self.buffer[2:10])[0], 10
            if len(self.buffer) < offset + length:
                break
            payload = self.buffer[offset:offset + length]
            self.buffer = self.buffer[offset + length:]
            opcode = first & 0x0F
            if opcode == 0x8:
                raise EOFError("the server closed the connection")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
            elif opcode in (0x0, 0x1):
                self.parts += payload
                if first & 0x80:
                    messages.append(self.parts.decode())
                    self.parts = b""
        return messages


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--unix", help="the server's Unix-domain socket")
    parser.add_argument("--port", type=int, help="or its loopback port")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each answer")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    credentials = {"username": f"human{args.seed}", "password": "correct horse battery"}
    status, body, cookie = post(args, "/api/register", credentials)
    if status != 201 and status != 200:
        raise SystemExit(f"cannot register: {status} {body}")
    sockets = []
    for _ in range(args.games):
        status, body, _ = post(args, "/api/games", {"scenario": "braveheart", "side": "scotland",
                                                    "computer": args.level}, cookie)
        if status != 201:
            raise SystemExit(f"cannot create a game: {status} {body}")
        sockets.append(WebSocket(args, f"/ws/games/{body['game']['id']}", cookie))

    sent = views = 0
    errors = {}
    due = []  # (when, order, socket, view message): the answers being "thought" about
    order = 0
    deadline = time.monotonic() + args.seconds
    while (now := time.monotonic()) < deadline:
        while due and due[0][0] <= now:
            _, _, ws, message = heapq.heappop(due)
            ws.send(json.dumps({"v": 1, "type": "action", "seq": message["seq"],
                                "ref": f"h{sent}",
                                "action": rng.choice(message["view"]["legal_actions"])}))
            sent += 1
        wait = min(deadline, due[0][0] if due else deadline) - now
        ready, _, _ = select.select(sockets, [], [], max(0.0, wait))
        for ws in ready:
            for text in ws.receive():
                message = json.loads(text)
                if message.get("type") == "error":
                    errors[message.get("code")] = errors.get(message.get("code"), 0) + 1
                if message.get("type") != "view":
                    continue
                views += 1
                # A newer view replaces an answer still being thought about: it may be stale.
                due = [d for d in due if d[2] is not ws]
                heapq.heapify(due)
                if message["view"].get("legal_actions"):
                    order += 1
                    heapq.heappush(due, (time.monotonic() + args.think, order, ws, message))
    print(json.dumps({"games": args.games, "actions_sent": sent, "views": views,
                      "errors": errors}))


if __name__ == "__main__":
    main()
