/* dl_lib.c - an instrumented library loaded and unloaded by dl_main.c. */
static volatile int sink;
static void leaf(int i) { for (int k = 0; k < 3; k++) sink += i * k; }
int lib_work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		leaf(i);
		s += i;
	}
	return s;
}
