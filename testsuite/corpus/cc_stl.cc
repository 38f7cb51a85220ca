// Standard containers and algorithms: inline member functions and
// templates instantiated heavily (map, unordered_map, string, sort,
// priority_queue, list), a word-frequency count and Dijkstra.
#include <cstdio>
#include <map>
#include <unordered_map>
#include <string>
#include <vector>
#include <queue>
#include <list>
#include <algorithm>
#include <sstream>

static std::vector<long> dijkstra(int n, const std::vector<std::vector<std::pair<int, int>>> &g)
{
	std::vector<long> d(n, 1L << 60);
	std::priority_queue<std::pair<long, int>, std::vector<std::pair<long, int>>, std::greater<>> q;
	d[0] = 0;
	q.push({0, 0});
	while (!q.empty()) {
		auto [dist, u] = q.top();
		q.pop();
		if (dist > d[u])
			continue;
		for (auto [v, w] : g[u])
			if (d[u] + w < d[v]) {
				d[v] = d[u] + w;
				q.push({d[v], v});
			}
	}
	return d;
}

int main()
{
	std::string text = "the quick brown fox jumps over the lazy dog the fox barks and the dog runs quick quick";
	std::istringstream in(text);
	std::unordered_map<std::string, int> freq;
	std::string w;
	while (in >> w)
		freq[w]++;
	std::map<std::string, int> sorted(freq.begin(), freq.end());
	for (auto &p : sorted)
		if (p.second > 1)
			std::printf("%s:%d ", p.first.c_str(), p.second);
	std::printf("\n");

	int n = 200;
	std::vector<std::vector<std::pair<int, int>>> g(n);
	for (int i = 0; i < n; i++)
		for (int k = 1; k <= 3; k++)
			g[i].push_back({(i * k * 7 + 3) % n, (i * 13 + k * 5) % 17 + 1});
	auto d = dijkstra(n, g);
	long s = 0;
	int unreachable = 0;
	for (long x : d) {
		if (x >= (1L << 60)) unreachable++;
		else s += x;
	}
	std::list<int> l;
	for (int i = 0; i < 100; i++)
		l.push_back(i * 37 % 101);
	l.sort();
	l.unique();
	std::vector<int> v(l.begin(), l.end());
	std::reverse(v.begin(), v.end());
	std::printf("dijkstra %ld unreachable %d list %zu first %d\n", s, unreachable, l.size(), v.front());
	return 0;
}
// corpus-levels-metrics: differ (blocks of main and dijkstra differ by a few (inline library code); cause not analysed)
