// Constructors and destructors, which GCC emits as several variants
// (complete, base, deleting; at -Os one unified body and thunks): each
// object is one entry of one region, whichever variant ran.
#include <cstdio>

static int live;

struct Base {
	int v;
	Base() : v(1) { live++; }
	virtual ~Base() { live--; }
};
struct VB { int w = 2; VB() { live++; } virtual ~VB() { live--; } };
struct Left : virtual VB { Left() { live++; } ~Left() override { live--; } };
struct Right : virtual VB { Right() { live++; } ~Right() override { live--; } };
struct Diamond : Left, Right { Diamond() { live++; } ~Diamond() override { live--; } };

__attribute__((noinline)) static void stack_objects()
{
	Base b[3];
	Diamond d;
	std::printf("stack %d %d\n", b[0].v, d.w);
}

int main()
{
	for (int i = 0; i < 5; i++) {
		Base *p = new Base;
		VB *q = new Diamond;
		delete p;
		delete q;
	}
	stack_objects();
	std::printf("live %d\n", live);
	return live != 0;
}
