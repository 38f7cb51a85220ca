// std::exit from deep inside member functions and lambdas while objects
// are alive: static objects are destroyed, automatic ones are not; the
// exit status is a fixed nonzero value.
#include <cstdio>
#include <cstdlib>

struct Loud {
	const char *n;
	explicit Loud(const char *s) : n(s) {}
	~Loud() { std::printf("~%s\n", n); }
};

static Loud global_obj("global");

struct Machine {
	int steps = 0;
	void run(int depth)
	{
		Loud local("local (never destroyed)");
		for (int i = 0; i < 4; i++) {
			steps++;
			if (depth == 0 && i == 2) {
				auto quit = [this] { std::printf("exiting after %d steps\n", steps); std::exit(5); };
				quit();
			}
			if (depth > 0)
				run(depth - 1);
		}
	}
};

int main()
{
	static Loud static_local("static local");
	Machine m;
	m.run(5);
	return 0;
}
// corpus-levels-metrics: differ (the front end folds a short-circuit test of simple operands into one test only when optimizing: fewer blocks, more statements at -O2)
