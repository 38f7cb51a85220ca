/* dl_main.c - loads the library named by argv[1] three times: dlopen,
 * dlsym, call lib_work(100), dlclose; a snapshot (selinst_dump, looked up
 * at run time so the plain build runs too) after the second dlclose.
 * Exit status 7.  Test: t-rt-dlclose.sh (issue 11, case A). */
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	int (*dump)(const char *) = (int (*)(const char *))dlsym(RTLD_DEFAULT, "selinst_dump");
	for (int round = 0; round < 3; round++) {
		void *h = dlopen(argv[1], RTLD_NOW);
		if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
		int (*w)(int) = (int (*)(int))dlsym(h, "lib_work");
		printf("round %d: %d\n", round, w(100));
		dlclose(h);
		if (round == 1 && dump && dump("mid.prof") != 0)
			printf("dump failed\n");
	}
	(void)argc;
	return 7;
}
