// Destructors and RAII: order of destruction on normal exit, on return
// from the middle, on exceptions unwinding several frames, temporaries,
// arrays of objects, members and bases, std::unique_ptr.
#include <cstdio>
#include <memory>
#include <string>

static std::string log_;

struct Tracer {
	char c;
	explicit Tracer(char x) : c(x) { log_ += '+'; log_ += c; }
	Tracer(const Tracer &o) : c(o.c) { log_ += "c"; log_ += c; }
	~Tracer() { log_ += '-'; log_ += c; }
};

struct Base { Tracer t{'B'}; virtual ~Base() { log_ += "~B"; } };
struct Derived : Base { Tracer m{'M'}; ~Derived() override { log_ += "~D"; } };

static int mid_return(int x)
{
	Tracer a('a');
	if (x) {
		Tracer b('b');
		return 1;
	}
	Tracer c('c');
	return 2;
}

static void thrower(int d)
{
	Tracer t(char('0' + d));
	if (d == 0)
		throw d;
	thrower(d - 1);
}

static Tracer make(char c) { return Tracer(c); }

int main()
{
	mid_return(1);
	log_ += '|';
	mid_return(0);
	log_ += '|';
	try {
		Tracer x('x');
		thrower(3);
	} catch (int) {
		log_ += "caught";
	}
	log_ += '|';
	{
		Tracer arr[3] = { Tracer('p'), Tracer('q'), Tracer('r') };
		(void)arr;
	}
	log_ += '|';
	{
		std::unique_ptr<Base> p(new Derived);
	}
	log_ += '|';
	make('t');
	log_ += '|';
	std::printf("%s\n", log_.c_str());
	return 0;
}
