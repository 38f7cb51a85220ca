/* exec after work: the profile must hold the work.  Usage:
 *   exec_paths execv|execvp|execl|execlp|execle|execve|fail|forkexec */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static volatile int sink;

__attribute__((noinline)) void work(int i)
{
	for (int k = 0; k < 100; k++)
		sink += i * k;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "execv";
	for (int i = 0; i < 10; i++)
		work(i);
	fflush(stdout);
	char *args[] = { "true", NULL };
	if (!strcmp(how, "execv"))
		execv("/bin/true", args);
	else if (!strcmp(how, "execvp"))
		execvp("true", args);
	else if (!strcmp(how, "execve"))
		execve("/bin/true", args, environ);
	else if (!strcmp(how, "execl"))
		execl("/bin/true", "true", (char *)NULL);
	else if (!strcmp(how, "execlp"))
		execlp("true", "true", (char *)NULL);
	else if (!strcmp(how, "execle"))
		execle("/bin/true", "true", (char *)NULL, environ);
	else if (!strcmp(how, "fail")) {
		/* exec fails: the program goes on and the profile at exit has
		 * everything. */
		if (execv("/nonexistent/program", args) == 0)
			return 3;
		for (int i = 0; i < 5; i++)
			work(i);
		printf("exec failed as expected\n");
		return 0;
	} else if (!strcmp(how, "forkexec")) {
		pid_t pid = fork();
		if (pid == 0) {
			execvp("true", args);
			_exit(127);
		}
		int status;
		waitpid(pid, &status, 0);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
	}
	perror("exec");
	return 2;
}
