/*
 * CPU capability vector with OpenSSL's layout and environment override.
 *
 *   word 0: CPUID.1:EDX  (bit 10 set once initialised, 28 shared cache, 30 Intel)
 *   word 1: CPUID.1:ECX
 *   word 2: CPUID.(EAX=7,ECX=0):EBX
 *   word 3: CPUID.(EAX=7,ECX=0):ECX
 *
 * AVX, AVX2 and AVX-512 bits are cleared when XGETBV shows the OS does not
 * save their register state.
 */
#ifndef CRYPTO_ASM_IA32CAP_H
#define CRYPTO_ASM_IA32CAP_H

extern unsigned int OPENSSL_ia32cap_P[4];

/* Bits used by this project, as (word, bit). */
#define CAP_W1_PCLMULQDQ (1u << 1)
#define CAP_W1_SSSE3     (1u << 9)
#define CAP_W1_MOVBE     (1u << 22)
#define CAP_W1_AESNI     (1u << 25)
#define CAP_W1_OSXSAVE   (1u << 27)
#define CAP_W1_AVX       (1u << 28)
#define CAP_W2_BMI1      (1u << 3)
#define CAP_W2_AVX2      (1u << 5)
#define CAP_W2_BMI2      (1u << 8)
#define CAP_W2_AVX512F   (1u << 16)
#define CAP_W2_ADX       (1u << 19)
#define CAP_W2_SHA       (1u << 29)
#define CAP_W2_AVX512BW  (1u << 30)
#define CAP_W2_AVX512VL  (1u << 31)
#define CAP_W3_VAES      (1u << 9)
#define CAP_W3_VPCLMULQDQ (1u << 10)

/*
 * The value OPENSSL_ia32cap_P takes given what CPUID reported (`cpuid`) and
 * the environment variable's text (`env`, NULL when unset), with OpenSSL
 * 3.0's rules:
 *   env = [~]V0[:[~]V1], each number 0x-hex, 0-octal or decimal, parsed up
 *   to the first character that is not a digit of its base;
 *   "~V" clears V's bits from the detected value, a bare "V" replaces it;
 *   V0 covers words 0-1, V1 words 2-3; without ":V1" words 2-3 become 0.
 * Bit 10 of word 0 is always set in the result.
 */
void casm_ia32cap_apply(const unsigned int cpuid[4], const char *env,
                        unsigned int out[4]);

/* What CPUID/XGETBV report on this CPU, before the environment mask. */
void casm_ia32cap_detect(unsigned int out[4]);

#endif
