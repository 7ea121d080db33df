// replay-c-parser: the anchor for imu-bench-replay (issue #11 part 3). A minimal CSV reader in C:
// reads FILE in 1 MiB blocks, skips '#' comments and the header, parses every field with a
// hand-written decimal fast path (mantissa below 2^53 times an exact power of ten, like
// IMUCore's DecimalParser; longer numbers go to strtod), and sums them so nothing is optimised
// away. Prints "LINES SUM". No validation, no units, no error positions: a speed limit only.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static const double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                               1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static double field(const char *p, const char *end) {
    const char *start = p;
    int neg = 0;
    if (p < end && (*p == '-' || *p == '+')) neg = (*p++ == '-');
    unsigned long long m = 0;
    int digits = 0, exp = 0;
    while (p < end && (unsigned)(*p - '0') < 10) { m = m * 10 + (unsigned)(*p++ - '0'); digits++; }
    if (p < end && *p == '.') {
        p++;
        while (p < end && (unsigned)(*p - '0') < 10) { m = m * 10 + (unsigned)(*p++ - '0'); digits++; exp--; }
    }
    if (p != end || digits > 18 || exp < -22) {   // exponents, long numbers: the library's parser
        char tmp[64];
        size_t n = (size_t)(end - start) < sizeof tmp - 1 ? (size_t)(end - start) : sizeof tmp - 1;
        memcpy(tmp, start, n); tmp[n] = 0;
        return strtod(tmp, NULL);
    }
    double v = (double)m / pow10[-exp];
    return neg ? -v : v;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: replay-c-parser FILE\n"); return 2; }
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) { perror(argv[1]); return 2; }
    static char buf[1 << 20];
    size_t have = 0;
    long lines = 0;
    int header = 1;
    double sum = 0;
    for (;;) {
        ssize_t n = read(fd, buf + have, sizeof buf - have);
        if (n <= 0) break;
        have += (size_t)n;
        char *line = buf, *stop = buf + have, *nl;
        while ((nl = memchr(line, '\n', (size_t)(stop - line))) != NULL) {
            if (*line != '#' && nl > line) {
                if (header) header = 0;
                else {
                    const char *f = line;
                    for (const char *c = line; c <= nl; c++) {
                        if (c == nl || *c == ',') { if (c > f) sum += field(f, c); f = c + 1; }
                    }
                    lines++;
                }
            }
            line = nl + 1;
        }
        have = (size_t)(stop - line);
        memmove(buf, line, have);
    }
    close(fd);
    printf("%ld %.6f\n", lines, sum);
    return 0;
}
