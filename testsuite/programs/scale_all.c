/* SPDX-License-Identifier: MIT */
/* An exported function with a loop, for the tests of call sites in other
 * units (t-plugin-sites, t-plugin-lto): alone, its unit sees no call. */
int scale_all(const int *v, int n, int k)
{
	/* s += v[i] * k, in branches that weigh the loop body over 64
	 * (small-body; unseen-small takes an exported function with a
	 * smaller loop and no caller in view for an accessor). */
	int s = 0;
	for (int i = 0; i < n; i++) {
		int x = v[i] * k;
		if (x < 0)
			s -= -x;
		else if (x > 1000)
			s += x;
		else if (x % 2)
			s += x;
		else if (x % 3)
			s += x;
		else if (x % 5)
			s += x;
		else
			s += x;
	}
	return s;
}
