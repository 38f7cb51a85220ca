// corpus-flags: -pthread
// corpus-levels: decisions (the front end evaluates more constexpr calls at compile time when optimizing)
// thread_local objects with dynamic initialisation and destructors (the
// compiler generates TLS init and wrapper functions), inline variables,
// constexpr functions evaluated at run time, std::call_once.
#include <cstdio>
#include <thread>
#include <mutex>
#include <atomic>
#include <vector>
#include <string>

static std::atomic<int> constructed{0}, destroyed{0};

struct PerThread {
	std::vector<int> seen;
	PerThread() { constructed++; }
	~PerThread() { destroyed++; }
	void add(int x) { seen.push_back(x); }
	long sum() const { long s = 0; for (int v : seen) s += v; return s; }
};

static thread_local PerThread pt;
inline int shared_inline_var = 7;
constexpr long cfib(int n) { return n < 2 ? n : cfib(n - 1) + cfib(n - 2); }
static std::once_flag once;
static int once_count;

static long worker(int id)
{
	std::call_once(once, [] { once_count++; });
	for (int i = 0; i < 100; i++)
		pt.add(i * id + shared_inline_var);
	return pt.sum();
}

int main()
{
	std::vector<std::thread> ts;
	std::vector<long> results(4);
	for (int id = 0; id < 4; id++)
		ts.emplace_back([id, &results] { results[id] = worker(id); });
	for (auto &t : ts)
		t.join();
	volatile int n = 20;
	long s = 0;
	for (long r : results)
		s += r;
	std::printf("sum %ld constructed %d destroyed %d once %d cfib %ld %ld\n", s, constructed.load(),
		    destroyed.load(), once_count, cfib(n), cfib(15));
	return 0;
}
// corpus-levels-metrics: differ (the front end evaluates more constexpr calls at compile time when optimizing)
