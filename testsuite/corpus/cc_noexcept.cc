// noexcept functions that catch internally, the noexcept operator,
// move constructors marked noexcept (chosen by std::vector), and
// exceptions propagating through functions with and without noexcept(false).
#include <cstdio>
#include <vector>
#include <stdexcept>
#include <utility>

static int moves, copies;
struct Item {
	int v;
	explicit Item(int x) : v(x) {}
	Item(const Item &o) : v(o.v) { copies++; }
	Item(Item &&o) noexcept : v(o.v) { moves++; o.v = -1; }
	Item &operator=(const Item &) = default;
};

static int risky(int x) { if (x % 5 == 0) throw std::runtime_error("five"); return x; }
static int safe(int x) noexcept
{
	try {
		return risky(x);
	} catch (...) {
		return -1;
	}
}
static int passthrough(int x) noexcept(false) { return risky(x) + 1; }
static void leaf() noexcept {}

int main()
{
	long s = 0;
	for (int i = 0; i < 100; i++)
		s += safe(i);
	int caught = 0;
	for (int i = 0; i < 100; i++) {
		try { s += passthrough(i); } catch (const std::exception &) { caught++; }
	}
	std::vector<Item> v;
	for (int i = 0; i < 100; i++)
		v.emplace_back(i);
	leaf();
	std::printf("s %ld caught %d noexcept %d %d %d copies %d moved %d last %d\n", s, caught, (int)noexcept(safe(1)),
		    (int)noexcept(passthrough(1)), (int)noexcept(leaf()), copies, moves > 0, v[99].v);
	return 0;
}
