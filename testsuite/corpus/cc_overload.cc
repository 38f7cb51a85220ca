// Overloaded functions, namespaces (named, nested, anonymous), operator
// overloading, conversion operators, constructors/destructors of
// temporaries: names that must stay distinct in a profile.
#include <cstdio>

namespace geo {
struct V { double x, y; };
inline V operator+(V a, V b) { return {a.x + b.x, a.y + b.y}; }
inline V operator*(double k, V a) { return {k * a.x, k * a.y}; }
inline double dot(V a, V b) { return a.x * b.x + a.y * b.y; }
namespace detail { static int calls; inline void count() { calls++; } }
}

namespace {
int f(int x) { return x + 1; }
long f(long x) { return x * 2; }
double f(double x) { return x / 2; }
const char *f(const char *s) { return s + 1; }
}

struct Money {
	long cents;
	explicit Money(long c) : cents(c) {}
	Money operator+(const Money &o) const { geo::detail::count(); return Money(cents + o.cents); }
	bool operator<(const Money &o) const { return cents < o.cents; }
	explicit operator double() const { return cents / 100.0; }
	Money &operator+=(long c) { cents += c; return *this; }
};

int main()
{
	geo::V a{1, 2}, b{3, -1};
	geo::V c = 2.0 * (a + b);
	Money m(0);
	for (int i = 0; i < 100; i++)
		m = m + Money(i);
	m += 5;
	std::printf("f %d %ld %.2f %s\n", f(1), f(10L), f(3.0), f("xyz"));
	std::printf("vec %.1f %.1f dot %.1f\n", c.x, c.y, geo::dot(a, c));
	std::printf("money %.2f less %d calls %d\n", (double)m, Money(1) < m, geo::detail::calls);
	return 0;
}
