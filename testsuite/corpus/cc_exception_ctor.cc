// Exceptions from constructors (partially built objects destroyed),
// function-try-blocks, destructors that use try/catch during unwinding,
// exceptions crossing a loop of RAII objects, and throw from a lambda
// called through std::function.
#include <cstdio>
#include <stdexcept>
#include <functional>
#include <string>

static std::string log_;

struct Part {
	int id;
	explicit Part(int i) : id(i) { if (i == 3) throw std::runtime_error("part3"); log_ += 'P'; log_ += char('0' + i); }
	~Part() { log_ += 'p'; log_ += char('0' + id); }
};

struct Whole {
	Part a, b, c;
	Whole(int x, int y, int z) try : a(x), b(y), c(z) {
		log_ += 'W';
	} catch (const std::exception &e) {
		log_ += "[W:";
		log_ += e.what();
		log_ += ']';
	}	// rethrown implicitly
};

struct Careful {
	~Careful()
	{
		try {
			throw 1;
		} catch (int) {
			log_ += 'k';
		}
	}
};

static void chain(int n)
{
	Careful c;
	Part p(n % 3);
	if (n == 0)
		throw std::logic_error("bottom");
	chain(n - 1);
}

int main()
{
	try { Whole w(1, 2, 4); } catch (...) { log_ += '!'; }
	log_ += '|';
	try { Whole w(1, 3, 4); } catch (const std::runtime_error &e) { log_ += "caught"; }
	log_ += '|';
	try { chain(4); } catch (const std::logic_error &e) { log_ += e.what(); }
	log_ += '|';
	std::function<int(int)> f = [](int x) -> int { if (x > 2) throw std::out_of_range("big"); return x; };
	int ok = 0, bad = 0;
	for (int i = 0; i < 6; i++) {
		try { ok += f(i); } catch (const std::out_of_range &) { bad++; }
	}
	std::printf("%s ok %d bad %d\n", log_.c_str(), ok, bad);
	return 0;
}
