/* SPDX-License-Identifier: MIT */
/* An exported function with two loop regions (each calls a function out
 * of its unit's view, so neither is a bounded leaf loop), for
 * t-plugin-lto: chosen with both loops at depth 0 by its unit. */
int ext_step(int x);
int outer(const int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		int x = v[i];
		if (x % 3 == 0) s += ext_step(x);
		else if (x % 3 == 1) s -= ext_step(x + 1);
		else if (x & 4) s ^= ext_step(x * 2);
		else s += 2 * x;
	}
	for (int i = 0; i < n; i++) {
		int x = v[i] + s;
		if (x % 5 == 0) s += ext_step(x);
		else if (x % 5 == 1) s -= ext_step(x - 1);
		else if (x & 2) s ^= ext_step(x / 2);
		else s += 3 * x;
	}
	return s;
}
