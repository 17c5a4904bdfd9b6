#include "rules/core/sha256_x86.h"

#include "rules/core/sha256_constants.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define BLOCKFOG_SHA_NI 1
#endif

namespace blockfog::core::sha256_x86 {

#ifdef BLOCKFOG_SHA_NI

namespace {

bool detect() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const bool ssse3 = (c >> 9) & 1U, sse41 = (c >> 19) & 1U;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  const bool sha = (b >> 29) & 1U;
  return ssse3 && sse41 && sha;
}

}  // namespace

bool available() {
  static const bool yes = detect();
  return yes;
}

__attribute__((target("sha,sse4.1,ssse3"))) void compress(std::array<std::uint32_t, 8>& h,
                                                          const std::uint8_t* blocks,
                                                          std::size_t count) {
  // The instructions keep the state as two halves, ABEF and CDGH (from the words A..H).
  __m128i abcd = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[0]));
  __m128i efgh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[4]));
  abcd = _mm_shuffle_epi32(abcd, 0xB1);              // C D A B (high to low: ...)
  efgh = _mm_shuffle_epi32(efgh, 0x1B);              // E F G H
  __m128i abef = _mm_alignr_epi8(abcd, efgh, 8);     // A B E F
  __m128i cdgh = _mm_blend_epi16(efgh, abcd, 0xF0);  // C D G H
  // Message words are big-endian: reverse the bytes of each 32-bit word.
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

  for (; count > 0; --count, blocks += 64) {
    const __m128i abef_in = abef, cdgh_in = cdgh;
    __m128i w[4];  // the last 16 words of the message schedule, four per slot
    for (int g = 0; g < 16; ++g) {
      __m128i& slot = w[g % 4];
      if (g < 4) {
        slot = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 16 * g)),
                                swap);
      } else {
        // FIPS 180-4 §6.2.2 step 1, four words at once: W[t-16] + s0(W[t-15]) (msg1), plus
        // W[t-7..t-4], then s1 of W[t-2] and W[t-1] (msg2).
        const __m128i& w1 = w[(g + 3) % 4];  // W[4g-4 .. 4g-1]
        const __m128i& w2 = w[(g + 2) % 4];  // W[4g-8 .. 4g-5]
        const __m128i& w3 = w[(g + 1) % 4];  // W[4g-12 .. 4g-9]
        slot = _mm_sha256msg1_epu32(slot, w3);
        slot = _mm_add_epi32(slot, _mm_alignr_epi8(w1, w2, 4));
        slot = _mm_sha256msg2_epu32(slot, w1);
      }
      __m128i words = _mm_add_epi32(
          slot, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256RoundConstants + 4 * g)));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words);  // two rounds
      words = _mm_shuffle_epi32(words, 0x0E);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, words);  // two more
    }
    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
  }

  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[0]), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[4]), _mm_alignr_epi8(dchg, feba, 8));
}

#else

bool available() { return false; }
void compress(std::array<std::uint32_t, 8>&, const std::uint8_t*, std::size_t) {}

#endif

}  // namespace blockfog::core::sha256_x86
