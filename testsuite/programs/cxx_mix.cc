// cxx_mix.cc - C++ constructs the plugin must leave intact: templates,
// inline members, exceptions through several frames, destructors, lambdas.
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <vector>

template <typename T> struct Acc {
	T sum{};
	void add(T v) { sum += v; }
	~Acc() { std::printf("~Acc %g\n", (double) sum); }
};

static int depth_thrower(int n)
{
	if (n == 0)
		throw std::runtime_error("bottom");
	Acc<int> guard;
	guard.add(n);
	return depth_thrower(n - 1) + 1;
}

int apply_all(const std::vector<int> &v, const std::function<int(int)> &f)
{
	int s = 0;
	for (int x : v)
		s += f(x);
	return s;
}

int main()
{
	std::vector<int> v{1, 2, 3, 4};
	int k = 3;
	std::printf("apply %d\n", apply_all(v, [k](int x) { return x * k; }));
	try {
		depth_thrower(3);
	} catch (const std::exception &e) {
		std::printf("caught %s\n", e.what());
	}
	Acc<double> a;
	for (int i = 0; i < 5; i++)
		a.add(i * 0.5);
	return 0;
}
