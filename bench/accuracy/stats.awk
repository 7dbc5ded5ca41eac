# Shared by bench/accuracy/run and bench/accuracy/gpu (awk -f stats.awk -f
# PROGRAM): the median, the spread ((max - min) / median, in %) and the
# largest of v[1..n].
function median(v, n,   i, j, t, c) {
	for (i = 1; i <= n; i++) c[i] = v[i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && c[j - 1] > c[j]; j--) { t = c[j]; c[j] = c[j - 1]; c[j - 1] = t }
	return n % 2 ? c[(n + 1) / 2] : (c[n / 2] + c[n / 2 + 1]) / 2
}
function spread(v, n,   i, lo, hi) {
	lo = hi = v[1]
	for (i = 1; i <= n; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
	return (hi - lo) / median(v, n) * 100
}
function max(v, n,   i, m) { for (i = 1; i <= n; i++) if (i == 1 || v[i] > m) m = v[i]; return m }
