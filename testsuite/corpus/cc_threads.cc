// corpus-flags: -pthread
// std::thread with lambdas and functions, std::mutex + lock_guard,
// std::atomic, exceptions thrown and caught inside threads, an exception
// carried out of a thread through std::exception_ptr, thread_local.
#include <cstdio>
#include <thread>
#include <mutex>
#include <atomic>
#include <vector>
#include <exception>
#include <stdexcept>

static std::mutex mu;
static long shared_total;
static std::atomic<int> atomics{0};
static thread_local int tl_calls;

static long work(int id)
{
	long s = 0;
	for (int i = 0; i < 10000; i++) {
		tl_calls++;
		s += (i * (id + 1)) % 97;
		try {
			if (i % 1000 == 999)
				throw std::runtime_error("tick");
		} catch (const std::exception &) {
			atomics++;
		}
	}
	return s + tl_calls;
}

int main()
{
	std::vector<std::thread> ts;
	for (int id = 0; id < 4; id++)
		ts.emplace_back([id] {
			long s = work(id);
			std::lock_guard<std::mutex> g(mu);
			shared_total += s;
		});
	std::exception_ptr err;
	std::thread failing([&err] {
		try {
			work(9);
			throw std::logic_error("from thread");
		} catch (...) {
			err = std::current_exception();
		}
	});
	for (auto &t : ts)
		t.join();
	failing.join();
	std::string what;
	try { std::rethrow_exception(err); } catch (const std::logic_error &e) { what = e.what(); }
	std::printf("total %ld atomics %d main tl %d err '%s'\n", shared_total, atomics.load(), tl_calls, what.c_str());
	return 0;
}
