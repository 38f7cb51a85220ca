// Lambdas (capturing by value and reference, mutable, generic, recursive
// corpus-levels: none (g++ instantiates the generic lambda's body only at -O0)
// through std::function), std::function stored in containers, passing
// lambdas to templates and to std algorithms.
#include <cstdio>
#include <functional>
#include <vector>
#include <algorithm>
#include <numeric>
#include <map>
#include <string>

template <typename F> long apply_n(F f, int n) { long s = 0; for (int i = 0; i < n; i++) s += f(i); return s; }

int main()
{
	int k = 3;
	auto by_val = [k](int x) { return x * k; };
	int counter = 0;
	auto by_ref = [&counter](int x) { counter += x; return counter; };
	auto gen = [](auto a, auto b) { return a + b; };
	auto mut = [n = 0]() mutable { return ++n; };
	int m1 = mut();
	int m2 = mut();
	std::printf("lambdas %ld %ld %.2f %d %d\n", apply_n(by_val, 100), apply_n(by_ref, 10), gen(1.5, 2), m1, m2);

	std::function<long(int)> fib = [&fib](int n) -> long { return n < 2 ? n : fib(n - 1) + fib(n - 2); };
	std::printf("fib %ld\n", fib(20));

	std::map<std::string, std::function<double(double, double)>> ops;
	ops["add"] = [](double a, double b) { return a + b; };
	ops["mul"] = std::multiplies<double>();
	ops["pow"] = [](double a, double b) { double r = 1; for (int i = 0; i < (int)b; i++) r *= a; return r; };
	for (auto &p : ops)
		std::printf("%s %.1f\n", p.first.c_str(), p.second(3, 4));

	std::vector<int> v(50);
	std::iota(v.begin(), v.end(), 1);
	std::sort(v.begin(), v.end(), [](int a, int b) { return (a % 7) != (b % 7) ? (a % 7) < (b % 7) : a > b; });
	long weighted = 0;
	std::for_each(v.begin(), v.end(), [&, i = 0](int x) mutable { weighted += (long)x * ++i; });
	auto cnt = std::count_if(v.begin(), v.end(), [k](int x) { return x % k == 0; });
	std::printf("sorted head %d %d %d weighted %ld count %ld\n", v[0], v[1], v[2], weighted, (long)cnt);

	std::vector<std::function<int()>> fs;
	for (int i = 0; i < 5; i++)
		fs.push_back([i, &k] { return i * 10 + k; });
	k = 7;
	int acc = 0;
	for (auto &f : fs)
		acc += f();
	std::printf("closures %d\n", acc);
	return 0;
}
