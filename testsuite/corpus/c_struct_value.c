/* Structs by value: small (registers), medium, large (memory), with
 * arrays and doubles; returned by value; nested calls passing returned
 * structs straight on; unions and bit-fields. */
#include <stdio.h>

struct small { int a, b; };
struct mixed { double x; int n; float y; };
struct big { long v[12]; char tag[9]; };
struct bits { unsigned a : 3, b : 9, c : 20; };
union pun { double d; unsigned long long u; };

static struct small sadd(struct small p, struct small q) { return (struct small){ p.a + q.a, p.b + q.b }; }
static struct mixed mscale(struct mixed m, double k) { m.x *= k; m.y *= (float)k; m.n++; return m; }

static struct big bfill(int seed)
{
	struct big b;
	for (int i = 0; i < 12; i++)
		b.v[i] = (long)seed * (i + 1) - i;
	for (int i = 0; i < 8; i++)
		b.tag[i] = 'a' + (seed + i) % 26;
	b.tag[8] = 0;
	return b;
}

static long bsum(struct big b)
{
	long s = 0;
	for (int i = 0; i < 12; i++)
		s += b.v[i];
	b.v[0] = 0;	/* callee's copy */
	return s + b.tag[3];
}

static struct bits bitsmix(struct bits x) { x.a += 5; x.b ^= 0x155; x.c = x.c * 3 + 1; return x; }
static unsigned long long bitsof(union pun p) { return p.u >> 52; }

int main(void)
{
	struct small s = { 1, 2 };
	for (int i = 0; i < 10; i++)
		s = sadd(s, (struct small){ i, -i * 2 });
	struct mixed m = mscale(mscale((struct mixed){ 1.5, 0, 2.0f }, 3.0), 0.5);
	struct big b = bfill(7);
	long t = bsum(b) + bsum(bfill(11));
	struct bits x = { 1, 2, 3 };
	for (int i = 0; i < 5; i++)
		x = bitsmix(x);
	printf("small %d %d\n", s.a, s.b);
	printf("mixed %.3f %d %.3f\n", m.x, m.n, m.y);
	printf("big %ld %ld %s\n", t, b.v[0], b.tag);
	printf("bits %u %u %u exp %llu\n", x.a, x.b, x.c, bitsof((union pun){ .d = 1024.0 }));
	return 0;
}
