/* corpus-flags: -lm */
/* _Complex and long double by value and returned, float math in small
 * helper functions. */
#include <stdio.h>
#include <complex.h>
#include <math.h>

static double complex cmul(double complex a, double complex b) { return a * b; }
static long double lsum(long double a, long double b, long double c) { return a + b + c; }
static float fmix(float a, double b, float c, double d) { return (float)(a * b + c * d); }

int main(void)
{
	double complex z = 1.0;
	double complex w = cexp(I * M_PI / 8);
	for (int i = 0; i < 16; i++)
		z = cmul(z, w);
	long double t = 0;
	for (int i = 1; i <= 100; i++)
		t = lsum(t, 1.0L / i, -1.0L / (i + 1));
	float f = 0;
	for (int i = 0; i < 10; i++)
		f = fmix(f, 0.5, (float)i, 0.25);
	printf("z %.6f %.6f t %.10Lf f %.5f\n", creal(z), fabs(cimag(z)) < 1e-12 ? 0.0 : cimag(z), t, f);
	return 0;
}
