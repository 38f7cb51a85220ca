/* SPDX-License-Identifier: MIT */
/* t-plugin-feedback.sh, effective counts (the OpenUH paper's weight with
 * runtime information) and the out-of-line term: main calls both
 * functions in its loop (depth 1, where the default threshold needs a
 * weight of 2048).
 *   busy  small body (static weight far under 2048) whose loop runs N
 *         times per call: its effective weight reaches the threshold;
 *   rare  a loop body of static weight over 2048 that the run never
 *         iterates (N = 0): chosen statically, not by its effective
 *         weight; its loop is entered once per call (0 iterations), so
 *         at threshold 0 the function and its loop have equal calls;
 *   walk  recursive, called once per iteration of main's loop (the
 *         bottleneck of the default build): its calls (4.5 per
 *         iteration) cannot be estimated from the loop's iterations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;
double a[1024];
static unsigned char pad[262144];

double busy(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += a[i & 1023] * a[(i + 1) & 1023];
	return s;
}

double rare(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++) {
			if (a[(i + 1) & 1023] > 1.5)
				s += a[i & 1023] * 1;
			else
				s -= 1;
			if (a[(i + 2) & 1023] > 2.5)
				s += a[i & 1023] * 2;
			else
				s -= 2;
			if (a[(i + 3) & 1023] > 3.5)
				s += a[i & 1023] * 3;
			else
				s -= 3;
			if (a[(i + 4) & 1023] > 4.5)
				s += a[i & 1023] * 4;
			else
				s -= 4;
			if (a[(i + 5) & 1023] > 5.5)
				s += a[i & 1023] * 5;
			else
				s -= 5;
			if (a[(i + 6) & 1023] > 6.5)
				s += a[i & 1023] * 6;
			else
				s -= 6;
			if (a[(i + 7) & 1023] > 7.5)
				s += a[i & 1023] * 7;
			else
				s -= 7;
			if (a[(i + 8) & 1023] > 8.5)
				s += a[i & 1023] * 8;
			else
				s -= 8;
			if (a[(i + 9) & 1023] > 9.5)
				s += a[i & 1023] * 9;
			else
				s -= 9;
			if (a[(i + 10) & 1023] > 10.5)
				s += a[i & 1023] * 10;
			else
				s -= 10;
			if (a[(i + 11) & 1023] > 11.5)
				s += a[i & 1023] * 11;
			else
				s -= 11;
			if (a[(i + 12) & 1023] > 12.5)
				s += a[i & 1023] * 12;
			else
				s -= 12;
			if (a[(i + 13) & 1023] > 13.5)
				s += a[i & 1023] * 13;
			else
				s -= 13;
			if (a[(i + 14) & 1023] > 14.5)
				s += a[i & 1023] * 14;
			else
				s -= 14;
			if (a[(i + 15) & 1023] > 15.5)
				s += a[i & 1023] * 15;
			else
				s -= 15;
			if (a[(i + 16) & 1023] > 16.5)
				s += a[i & 1023] * 16;
			else
				s -= 16;
			if (a[(i + 17) & 1023] > 17.5)
				s += a[i & 1023] * 17;
			else
				s -= 17;
			if (a[(i + 18) & 1023] > 18.5)
				s += a[i & 1023] * 18;
			else
				s -= 18;
			if (a[(i + 19) & 1023] > 19.5)
				s += a[i & 1023] * 19;
			else
				s -= 19;
			if (a[(i + 20) & 1023] > 20.5)
				s += a[i & 1023] * 20;
			else
				s -= 20;
			if (a[(i + 21) & 1023] > 21.5)
				s += a[i & 1023] * 21;
			else
				s -= 21;
			if (a[(i + 22) & 1023] > 22.5)
				s += a[i & 1023] * 22;
			else
				s -= 22;
			if (a[(i + 23) & 1023] > 23.5)
				s += a[i & 1023] * 23;
			else
				s -= 23;
			if (a[(i + 24) & 1023] > 24.5)
				s += a[i & 1023] * 24;
			else
				s -= 24;
			if (a[(i + 25) & 1023] > 25.5)
				s += a[i & 1023] * 25;
			else
				s -= 25;
			if (a[(i + 26) & 1023] > 26.5)
				s += a[i & 1023] * 26;
			else
				s -= 26;
			if (a[(i + 27) & 1023] > 27.5)
				s += a[i & 1023] * 27;
			else
				s -= 27;
			if (a[(i + 28) & 1023] > 28.5)
				s += a[i & 1023] * 28;
			else
				s -= 28;
			if (a[(i + 29) & 1023] > 29.5)
				s += a[i & 1023] * 29;
			else
				s -= 29;
			if (a[(i + 30) & 1023] > 30.5)
				s += a[i & 1023] * 30;
			else
				s -= 30;
			if (a[(i + 31) & 1023] > 31.5)
				s += a[i & 1023] * 31;
			else
				s -= 31;
			if (a[(i + 32) & 1023] > 32.5)
				s += a[i & 1023] * 32;
			else
				s -= 32;
			if (a[(i + 33) & 1023] > 33.5)
				s += a[i & 1023] * 33;
			else
				s -= 33;
			if (a[(i + 34) & 1023] > 34.5)
				s += a[i & 1023] * 34;
			else
				s -= 34;
			if (a[(i + 35) & 1023] > 35.5)
				s += a[i & 1023] * 35;
			else
				s -= 35;
			if (a[(i + 36) & 1023] > 36.5)
				s += a[i & 1023] * 36;
			else
				s -= 36;
			if (a[(i + 37) & 1023] > 37.5)
				s += a[i & 1023] * 37;
			else
				s -= 37;
			if (a[(i + 38) & 1023] > 38.5)
				s += a[i & 1023] * 38;
			else
				s -= 38;
			if (a[(i + 39) & 1023] > 39.5)
				s += a[i & 1023] * 39;
			else
				s -= 39;
			if (a[(i + 40) & 1023] > 40.5)
				s += a[i & 1023] * 40;
			else
				s -= 40;
			if (a[(i + 41) & 1023] > 41.5)
				s += a[i & 1023] * 41;
			else
				s -= 41;
			if (a[(i + 42) & 1023] > 42.5)
				s += a[i & 1023] * 42;
			else
				s -= 42;
			if (a[(i + 43) & 1023] > 43.5)
				s += a[i & 1023] * 43;
			else
				s -= 43;
			if (a[(i + 44) & 1023] > 44.5)
				s += a[i & 1023] * 44;
			else
				s -= 44;
			if (a[(i + 45) & 1023] > 45.5)
				s += a[i & 1023] * 45;
			else
				s -= 45;
			if (a[(i + 46) & 1023] > 46.5)
				s += a[i & 1023] * 46;
			else
				s -= 46;
			if (a[(i + 47) & 1023] > 47.5)
				s += a[i & 1023] * 47;
			else
				s -= 47;
			if (a[(i + 48) & 1023] > 48.5)
				s += a[i & 1023] * 48;
			else
				s -= 48;
			if (a[(i + 49) & 1023] > 49.5)
				s += a[i & 1023] * 49;
			else
				s -= 49;
			if (a[(i + 50) & 1023] > 50.5)
				s += a[i & 1023] * 50;
			else
				s -= 50;
			if (a[(i + 51) & 1023] > 51.5)
				s += a[i & 1023] * 51;
			else
				s -= 51;
			if (a[(i + 52) & 1023] > 52.5)
				s += a[i & 1023] * 52;
			else
				s -= 52;
			if (a[(i + 53) & 1023] > 53.5)
				s += a[i & 1023] * 53;
			else
				s -= 53;
			if (a[(i + 54) & 1023] > 54.5)
				s += a[i & 1023] * 54;
			else
				s -= 54;
			if (a[(i + 55) & 1023] > 55.5)
				s += a[i & 1023] * 55;
			else
				s -= 55;
			if (a[(i + 56) & 1023] > 56.5)
				s += a[i & 1023] * 56;
			else
				s -= 56;
			if (a[(i + 57) & 1023] > 57.5)
				s += a[i & 1023] * 57;
			else
				s -= 57;
			if (a[(i + 58) & 1023] > 58.5)
				s += a[i & 1023] * 58;
			else
				s -= 58;
			if (a[(i + 59) & 1023] > 59.5)
				s += a[i & 1023] * 59;
			else
				s -= 59;
			if (a[(i + 60) & 1023] > 60.5)
				s += a[i & 1023] * 60;
			else
				s -= 60;
			if (a[(i + 61) & 1023] > 61.5)
				s += a[i & 1023] * 61;
			else
				s -= 61;
			if (a[(i + 62) & 1023] > 62.5)
				s += a[i & 1023] * 62;
			else
				s -= 62;
			if (a[(i + 63) & 1023] > 63.5)
				s += a[i & 1023] * 63;
			else
				s -= 63;
			if (a[(i + 64) & 1023] > 64.5)
				s += a[i & 1023] * 64;
			else
				s -= 64;
			if (a[(i + 65) & 1023] > 65.5)
				s += a[i & 1023] * 65;
			else
				s -= 65;
			if (a[(i + 66) & 1023] > 66.5)
				s += a[i & 1023] * 66;
			else
				s -= 66;
			if (a[(i + 67) & 1023] > 67.5)
				s += a[i & 1023] * 67;
			else
				s -= 67;
			if (a[(i + 68) & 1023] > 68.5)
				s += a[i & 1023] * 68;
			else
				s -= 68;
			if (a[(i + 69) & 1023] > 69.5)
				s += a[i & 1023] * 69;
			else
				s -= 69;
			if (a[(i + 70) & 1023] > 70.5)
				s += a[i & 1023] * 70;
			else
				s -= 70;
			if (a[(i + 71) & 1023] > 71.5)
				s += a[i & 1023] * 71;
			else
				s -= 71;
			if (a[(i + 72) & 1023] > 72.5)
				s += a[i & 1023] * 72;
			else
				s -= 72;
			if (a[(i + 73) & 1023] > 73.5)
				s += a[i & 1023] * 73;
			else
				s -= 73;
			if (a[(i + 74) & 1023] > 74.5)
				s += a[i & 1023] * 74;
			else
				s -= 74;
			if (a[(i + 75) & 1023] > 75.5)
				s += a[i & 1023] * 75;
			else
				s -= 75;
			if (a[(i + 76) & 1023] > 76.5)
				s += a[i & 1023] * 76;
			else
				s -= 76;
			if (a[(i + 77) & 1023] > 77.5)
				s += a[i & 1023] * 77;
			else
				s -= 77;
			if (a[(i + 78) & 1023] > 78.5)
				s += a[i & 1023] * 78;
			else
				s -= 78;
			if (a[(i + 79) & 1023] > 79.5)
				s += a[i & 1023] * 79;
			else
				s -= 79;
			if (a[(i + 80) & 1023] > 80.5)
				s += a[i & 1023] * 80;
			else
				s -= 80;
			if (a[(i + 81) & 1023] > 81.5)
				s += a[i & 1023] * 81;
			else
				s -= 81;
			if (a[(i + 82) & 1023] > 82.5)
				s += a[i & 1023] * 82;
			else
				s -= 82;
			if (a[(i + 83) & 1023] > 83.5)
				s += a[i & 1023] * 83;
			else
				s -= 83;
			if (a[(i + 84) & 1023] > 84.5)
				s += a[i & 1023] * 84;
			else
				s -= 84;
			if (a[(i + 85) & 1023] > 85.5)
				s += a[i & 1023] * 85;
			else
				s -= 85;
			if (a[(i + 86) & 1023] > 86.5)
				s += a[i & 1023] * 86;
			else
				s -= 86;
			if (a[(i + 87) & 1023] > 87.5)
				s += a[i & 1023] * 87;
			else
				s -= 87;
			if (a[(i + 88) & 1023] > 88.5)
				s += a[i & 1023] * 88;
			else
				s -= 88;
			if (a[(i + 89) & 1023] > 89.5)
				s += a[i & 1023] * 89;
			else
				s -= 89;
			if (a[(i + 90) & 1023] > 90.5)
				s += a[i & 1023] * 90;
			else
				s -= 90;
			if (a[(i + 91) & 1023] > 91.5)
				s += a[i & 1023] * 91;
			else
				s -= 91;
			if (a[(i + 92) & 1023] > 92.5)
				s += a[i & 1023] * 92;
			else
				s -= 92;
			if (a[(i + 93) & 1023] > 93.5)
				s += a[i & 1023] * 93;
			else
				s -= 93;
			if (a[(i + 94) & 1023] > 94.5)
				s += a[i & 1023] * 94;
			else
				s -= 94;
			if (a[(i + 95) & 1023] > 95.5)
				s += a[i & 1023] * 95;
			else
				s -= 95;
			if (a[(i + 96) & 1023] > 96.5)
				s += a[i & 1023] * 96;
			else
				s -= 96;
			if (a[(i + 97) & 1023] > 97.5)
				s += a[i & 1023] * 97;
			else
				s -= 97;
			if (a[(i + 98) & 1023] > 98.5)
				s += a[i & 1023] * 98;
			else
				s -= 98;
			if (a[(i + 99) & 1023] > 99.5)
				s += a[i & 1023] * 99;
			else
				s -= 99;
			if (a[(i + 100) & 1023] > 100.5)
				s += a[i & 1023] * 100;
			else
				s -= 100;
			if (a[(i + 101) & 1023] > 101.5)
				s += a[i & 1023] * 101;
			else
				s -= 101;
			if (a[(i + 102) & 1023] > 102.5)
				s += a[i & 1023] * 102;
			else
				s -= 102;
			if (a[(i + 103) & 1023] > 103.5)
				s += a[i & 1023] * 103;
			else
				s -= 103;
			if (a[(i + 104) & 1023] > 104.5)
				s += a[i & 1023] * 104;
			else
				s -= 104;
			if (a[(i + 105) & 1023] > 105.5)
				s += a[i & 1023] * 105;
			else
				s -= 105;
			if (a[(i + 106) & 1023] > 106.5)
				s += a[i & 1023] * 106;
			else
				s -= 106;
			if (a[(i + 107) & 1023] > 107.5)
				s += a[i & 1023] * 107;
			else
				s -= 107;
			if (a[(i + 108) & 1023] > 108.5)
				s += a[i & 1023] * 108;
			else
				s -= 108;
			if (a[(i + 109) & 1023] > 109.5)
				s += a[i & 1023] * 109;
			else
				s -= 109;
			if (a[(i + 110) & 1023] > 110.5)
				s += a[i & 1023] * 110;
			else
				s -= 110;
			if (a[(i + 111) & 1023] > 111.5)
				s += a[i & 1023] * 111;
			else
				s -= 111;
			if (a[(i + 112) & 1023] > 112.5)
				s += a[i & 1023] * 112;
			else
				s -= 112;
			if (a[(i + 113) & 1023] > 113.5)
				s += a[i & 1023] * 113;
			else
				s -= 113;
			if (a[(i + 114) & 1023] > 114.5)
				s += a[i & 1023] * 114;
			else
				s -= 114;
			if (a[(i + 115) & 1023] > 115.5)
				s += a[i & 1023] * 115;
			else
				s -= 115;
			if (a[(i + 116) & 1023] > 116.5)
				s += a[i & 1023] * 116;
			else
				s -= 116;
			if (a[(i + 117) & 1023] > 117.5)
				s += a[i & 1023] * 117;
			else
				s -= 117;
			if (a[(i + 118) & 1023] > 118.5)
				s += a[i & 1023] * 118;
			else
				s -= 118;
			if (a[(i + 119) & 1023] > 119.5)
				s += a[i & 1023] * 119;
			else
				s -= 119;
			if (a[(i + 120) & 1023] > 120.5)
				s += a[i & 1023] * 120;
			else
				s -= 120;
	}
	return s;
}

/* Work in libc: the hooks of a threshold-0 build stay a minor part of
 * the run, so its predictions do not hinge on a small remainder (under
 * load CI once predicted all regions at 124% and dropped rare).  A
 * function of its own: at threshold 0 it is the bottleneck, with nothing
 * inside to add; the default build leaves it to main's loop. */
__attribute__((noinline)) static int pad_work(int c)
{
	memset(pad, c, sizeof pad);
	return pad[c % sizeof pad];
}

int walk(int n)
{
	return n ? walk(n - 1) + 1 : 0;
}

int main(int argc, char **argv)
{
	int calls = argc > 1 ? atoi(argv[1]) : 20000;
	int n = argc > 2 ? atoi(argv[2]) : 1024;
	double t = 0;
	for (int i = 0; i < 1024; i++)
		a[i] = i * 0.25;
	for (int c = 0; c < calls; c++) {
		t += pad_work(c);
		t += busy(n);
		t += rare(0);
		t += walk(c & 7);
	}
	sink = t;
	printf("%g\n", t);
	return 0;
}
