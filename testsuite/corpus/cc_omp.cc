// corpus-flags: -fopenmp
// corpus-env: OMP_NUM_THREADS=2
// OpenMP in C++: parallel for over a std::vector with member function
// calls, reductions, an exception thrown and caught inside each
// iteration, tasks capturing objects, a user-declared reduction.
#include <cstdio>
#include <vector>
#include <stdexcept>
#include <cmath>

struct Particle {
	double x, v;
	void step(double dt) { v -= x * dt; x += v * dt; }
	double energy() const { return 0.5 * (x * x + v * v); }
};

struct Acc { long n; double s; };
#pragma omp declare reduction(accplus : Acc : omp_out.n += omp_in.n, omp_out.s += omp_in.s) initializer(omp_priv = Acc{0, 0.0})

static double checked(int i)
{
	if (i % 100 == 7)
		throw std::domain_error("bad");
	return std::sqrt((double)i);
}

int main()
{
	std::vector<Particle> ps(1000);
	for (int i = 0; i < 1000; i++)
		ps[i] = Particle{ (i % 10) * 0.1, 0.0 };
	for (int t = 0; t < 100; t++) {
#pragma omp parallel for
		for (int i = 0; i < 1000; i++)
			ps[i].step(0.01);
	}
	double e = 0;
#pragma omp parallel for reduction(+:e)
	for (int i = 0; i < 1000; i++)
		e += ps[i].energy();
	Acc acc{0, 0.0};
	int errors = 0;
#pragma omp parallel for reduction(accplus:acc) reduction(+:errors)
	for (int i = 0; i < 1000; i++) {
		try {
			acc.s += checked(i);
			acc.n++;
		} catch (const std::domain_error &) {
			errors++;
		}
	}
	long tasks = 0;
#pragma omp parallel
#pragma omp single
	for (int k = 0; k < 20; k++) {
		Particle p{ (double)k, 1.0 };
#pragma omp task firstprivate(p) shared(tasks)
		{
			p.step(0.5);
			long r = std::lround(p.energy() * 100);
#pragma omp atomic
			tasks += r;
		}
	}
	std::printf("energy %.6f acc %ld %.4f errors %d tasks %ld\n", e, acc.n, acc.s, errors, tasks);
	return 0;
}
