#ifndef INTERLUDE_CCRYPTO_SHIM_H
#define INTERLUDE_CCRYPTO_SHIM_H

// The parts of OpenSSL 3's libcrypto GroupService uses: the one-shot HMAC() (not deprecated in
// OpenSSL 3, unlike the HMAC_CTX functions), the SHA-256 digest, RAND_bytes for key material and
// token ids, and CRYPTO_memcmp for constant-time comparison.

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#endif
