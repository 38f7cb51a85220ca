// Static initialisation: namespace-scope objects with constructors
// (dynamic init before main, destruction after), function-local statics
// (guarded, initialised once), static members, init through functions.
#include <cstdio>
#include <string>
#include <vector>

static std::string order;

static int compute(int x) { order += 'c'; return x * x + 1; }

struct Registrar {
	const char *n;
	explicit Registrar(const char *s) : n(s) { order += n; }
	~Registrar() { std::printf("destroy %s\n", n); }
};

static Registrar r1("A");
static int global_val = compute(6);
static Registrar r2("B");
static std::vector<int> table = [] { std::vector<int> v; for (int i = 0; i < 10; i++) v.push_back(i * i); return v; }();

struct Widget { static int instances; static const std::string kind; Widget() { instances++; } };
int Widget::instances = compute(2);
const std::string Widget::kind = "widget";

static int &counter()
{
	static int c = compute(3);
	return c;
}

static const Registrar &lazy()
{
	static Registrar r("L");
	return r;
}

int main()
{
	for (int i = 0; i < 5; i++)
		counter()++;
	Widget w1, w2;
	lazy();
	lazy();
	std::printf("order %s global %d table %d counter %d widgets %d %s\n", order.c_str(), global_val,
		    table[7], counter(), Widget::instances, Widget::kind.c_str());
	return 0;
}
