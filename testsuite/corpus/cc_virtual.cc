// Virtual calls: abstract bases, overriding at several levels, multiple
// inheritance with thunks, virtual inheritance, virtual destructors,
// calls through base pointers in loops, dynamic_cast, typeid.
#include <cstdio>
#include <typeinfo>
#include <vector>
#include <memory>

struct Shape { virtual ~Shape() {} virtual double area() const = 0; virtual int sides() const { return 0; } };
struct Tri : Shape { double b, h; Tri(double x, double y) : b(x), h(y) {} double area() const override { return b * h / 2; } int sides() const override { return 3; } };
struct Rect : Shape { double w, h; Rect(double x, double y) : w(x), h(y) {} double area() const override { return w * h; } int sides() const override { return 4; } };
struct Square final : Rect { explicit Square(double s) : Rect(s, s) {} double area() const override { return Rect::area() + 0; } };

struct Named { virtual ~Named() {} virtual const char *name() const { return "named"; } };
struct Counted { virtual ~Counted() {} virtual int count() const = 0; };
struct Both : Named, Counted { int n; explicit Both(int x) : n(x) {} const char *name() const override { return "both"; } int count() const override { return n; } };

struct VB { int v = 1; virtual ~VB() {} virtual int get() const { return v; } };
struct L : virtual VB { int get() const override { return v + 10; } };
struct R : virtual VB { };
struct Diamond : L, R { };

static int count_of(const Counted &c) { return c.count(); }

int main()
{
	std::vector<std::unique_ptr<Shape>> shapes;
	for (int i = 1; i <= 30; i++) {
		if (i % 3 == 0) shapes.emplace_back(new Tri(i, 2));
		else if (i % 3 == 1) shapes.emplace_back(new Rect(i, 0.5));
		else shapes.emplace_back(new Square(i));
	}
	double total = 0;
	int sides = 0, squares = 0;
	for (int rep = 0; rep < 1000; rep++)
		for (auto &s : shapes) {
			total += s->area();
			sides += s->sides();
			if (rep == 0 && dynamic_cast<Square *>(s.get()))
				squares++;
		}
	std::printf("total %.1f sides %d squares %d\n", total, sides, squares);
	Both b(17);
	Named *n = &b;
	std::printf("both %s %d %s\n", n->name(), count_of(b), typeid(*n) == typeid(Both) ? "Both" : "?");
	Diamond d;
	VB *vb = &d;
	std::printf("diamond %d\n", vb->get());
	return 0;
}
