/* vfork_exec.c PROFILE - work() ten times, then five vfork + exec of
 * /bin/true; after each, says whether PROFILE exists yet: a vfork child
 * must write nothing (issue 11, G), so it is "absent" until exit. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;
void work(int n) { for (int i = 0; i < n; i++) sink += i; }

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	for (int i = 0; i < 10; i++)
		work(1000);
	for (int i = 0; i < 5; i++) {
		pid_t p = vfork();
		if (p == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		int st;
		waitpid(p, &st, 0);
		printf("exec %d: status %d, profile %s\n", i, WEXITSTATUS(st),
		       access(argv[1], F_OK) == 0 ? "present" : "absent");
	}
	return 3;
}
