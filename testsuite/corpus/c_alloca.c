/* alloca: in loops (memory held until return), in recursion, with sizes
 * from arguments, and mixed with VLAs. */
#include <stdio.h>
#include <string.h>
#include <alloca.h>

static unsigned checksum(const unsigned char *p, size_t n)
{
	unsigned h = 2166136261u;
	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

static unsigned join(int n, const char **parts)
{
	size_t len = 1;
	for (int i = 0; i < n; i++)
		len += strlen(parts[i]) + 1;
	char *buf = alloca(len);
	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		strcat(buf, parts[i]);
		strcat(buf, "/");
	}
	return checksum((unsigned char *)buf, strlen(buf));
}

static unsigned many(int k)
{
	unsigned h = 0;
	for (int i = 1; i <= k; i++) {
		unsigned char *p = alloca(i);
		memset(p, i, i);
		h += checksum(p, i);
	}
	return h;
}

static unsigned rec(int d)
{
	if (d == 0)
		return 7;
	int *p = alloca(sizeof(int) * d);
	int v[d];
	for (int i = 0; i < d; i++)
		p[i] = v[i] = i * d;
	unsigned r = rec(d - 1);
	return r * 33 + p[d - 1] + v[d / 2];
}

int main(void)
{
	const char *parts[] = { "usr", "lib", "gcc", "x86_64-linux-gnu", "12", "plugin" };
	printf("join %08x\n", join(6, parts));
	printf("many %08x\n", many(300));
	printf("rec %08x\n", rec(100));
	return 0;
}
