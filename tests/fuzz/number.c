/*
 * tests/fuzz/number.c -- libFuzzer harness of calc_parse_number (calc/units.c).
 *
 * Every kind of unit parses the same text.  The contract: 0 with a finite value, or -1;
 * never a crash, never an out-of-bounds read of the text, never NaN or infinity.
 */
#include "fuzz.h"
#include "calc.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	char *s = fuzz_strndup(data, size);
	static const enum calc_unit kinds[] = {CALC_U_NONE,     CALC_U_BYTES, CALC_U_BYTES_S, CALC_U_SECONDS,
	                                       CALC_U_FRACTION, CALC_U_FLOPS, CALC_U_MONEY};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		double v = 12345;
		if (calc_parse_number(s, kinds[i], &v) == 0)
			FUZZ_CHECK(isfinite(v));
	}
	free(s);
	return 0;
}
