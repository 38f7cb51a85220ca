# gen_funcs.sh N > funcs.c: N functions f_k(x, d) calling
# tab[(x >> 8d) % N](x, d - 1) while d > 0, and tab[] (write_race.c).
n=$1
echo 'typedef void fn(unsigned long, int);'
echo "extern fn *tab[]; const unsigned ntab = $n; __thread volatile unsigned long fsink;"
for ((k = 0; k < n; k++)); do
	echo "void f$k(unsigned long x, int d) { fsink += $k; if (d > 0) tab[(x >> (8 * d)) % $n](x, d - 1); }"
done
printf 'fn *tab[] = {'
for ((k = 0; k < n; k++)); do printf 'f%d,' $k; done
echo '};'
