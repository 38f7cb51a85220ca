/* static inline functions from a header: used, unused, calling each
 * other, address taken. */
#include <stdio.h>
#include "c_static_inline.h"

int main(void)
{
	int s = 0;
	for (int i = -50; i < 150; i++)
		s += hdr_clamp(i, 0, 100);
	int (*m)(int, int) = hdr_max;
	printf("clamp %d max %d hash %u\n", s, m(3, 9), hdr_hash("selinst corpus"));
	return 0;
}
