// Starts blockfog-server on a free port with a temporary database and the real web root, and
// headless Chromium through playwright-core (Debian's /usr/bin/chromium, never a download).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../../..');

export function serverBinary() {
  const candidates = [
    process.env.BLOCKFOG_SERVER,
    path.join(repoRoot, 'build/debug/bin/blockfog-server'),
    path.join(repoRoot, 'build/release/bin/blockfog-server'),
  ].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`blockfog-server not built (looked at ${candidates.join(', ')})`);
  return found;
}

export function outputDir() {
  const dir = process.env.BLOCKFOG_WEB_OUT || path.join(repoRoot, 'build/web-test-output');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export async function startServer(extraArgs = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockfog-web-'));
  const portFile = path.join(dir, 'port');
  const child = spawn(
    serverBinary(),
    [
      '--listen',
      '127.0.0.1:0',
      '--port-file',
      portFile,
      '--db',
      path.join(dir, 'test.db'),
      '--web-root',
      path.join(repoRoot, 'web-client'),
      // Cheap password hashes: the tests register many accounts.
      '--log-level',
      'warn',
      '--password-cost',
      '10',
      ...extraArgs,
    ],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      // The caller's sanitizer options (the debug test preset's) come last, so they win.
      env: {
        ...process.env,
        ASAN_OPTIONS: ['detect_leaks=0', process.env.ASAN_OPTIONS].filter(Boolean).join(':'),
      },
    },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 60000;
  let port = 0;
  while (!port) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('server did not start');
    try {
      port = Number(fs.readFileSync(portFile, 'utf8').trim());
    } catch {
      /* not yet */
    }
    if (!port) await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      await exited;
      clearTimeout(timer);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// playwright's launch() gives Chromium a fresh temporary --user-data-dir of its own; each
// newContext() is then an independent browser profile (cookies, storage).
export async function startBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

// For a test file whose tests share one server (started with `serverArgs`) and one browser:
// registers the hooks that start both before the file's first test and close them after its
// last. The returned object's `server` and `browser` are set from the first test on.
export function useServerAndBrowser(serverArgs = []) {
  let server;
  let browser;
  before(async () => {
    server = await startServer(serverArgs);
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      return server;
    },
    get browser() {
      return browser;
    },
  };
}
