// Templates: function and class templates, specialisation, variadic
// templates, recursion through templates (compile-time and run-time),
// CRTP, inline member functions defined in the class.
#include <cstdio>
#include <cstddef>

template <typename T> T tmax(T a, T b) { return a > b ? a : b; }
template <> const char *tmax<const char *>(const char *a, const char *b) { return a[0] > b[0] ? a : b; }

template <typename T, std::size_t N> struct Vec {
	T v[N];
	T dot(const Vec &o) const { T s = T(); for (std::size_t i = 0; i < N; i++) s += v[i] * o.v[i]; return s; }
	Vec operator+(const Vec &o) const { Vec r; for (std::size_t i = 0; i < N; i++) r.v[i] = v[i] + o.v[i]; return r; }
};

template <typename... Args> long sum_all() { return 0; }
template <typename T, typename... Args> long sum_all(T first, Args... rest) { return (long)first + sum_all(rest...); }

template <int N> struct Fact { static const long value = N * Fact<N - 1>::value; };
template <> struct Fact<0> { static const long value = 1; };

template <typename T> T power(T b, unsigned e) { return e == 0 ? T(1) : (e % 2 ? b * power(b, e - 1) : power(b * b, e / 2)); }

template <typename Derived> struct Shape {
	double area() const { return static_cast<const Derived *>(this)->area_impl(); }
	double twice() const { return 2 * area(); }
};
struct Sq : Shape<Sq> { double s; explicit Sq(double x) : s(x) {} double area_impl() const { return s * s; } };
struct Rect : Shape<Rect> { double w, h; Rect(double a, double b) : w(a), h(b) {} double area_impl() const { return w * h; } };

template <typename S> double total_twice(const S &s, int n) { double t = 0; for (int i = 0; i < n; i++) t += s.twice(); return t; }

int main()
{
	Vec<int, 4> a = {{1, 2, 3, 4}}, b = {{5, 6, 7, 8}};
	Vec<double, 3> c = {{0.5, 1.5, 2.5}};
	std::printf("max %d %.1f %s\n", tmax(3, 7), tmax(2.5, -1.0), tmax("apple", "pear"));
	std::printf("dot %d %d %.2f\n", a.dot(b), (a + b).dot(a), c.dot(c));
	std::printf("sum_all %ld\n", sum_all(1, 2L, 'a', (short)4, 5u));
	std::printf("fact %ld power %ld %.4f\n", Fact<15>::value, power(3L, 25), power(1.5, 7));
	std::printf("crtp %.1f %.1f\n", total_twice(Sq(3), 10), total_twice(Rect(2, 5), 10));
	return 0;
}
// corpus-levels-metrics: differ (main has 15 blocks at -O0 and 10 at -O2, statements equal; cause not analysed)
