/* An SPI device that is not there: LD_PRELOAD it under a program that uses spidev.
 * open() of /dev/spidevB.C gives /dev/null (so write() goes nowhere), and the SPI ioctls
 * on it succeed (SPI_IOC_MESSAGE returns the bytes it "moved"); every other call is the
 * real one. Bytes written or transferred are counted and reported at exit to the file
 * named by FAKE_SPIDEV_REPORT. Only open and ioctl (and the counting write) are faked. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define SPI_MAGIC 'k'
#define MAX_FAKES 4

static int fakes[MAX_FAKES] = {-1, -1, -1, -1};
static unsigned long long bytes_moved, transfers;

static int is_fake(int fd) {
    for (int i = 0; i < MAX_FAKES; i++)
        if (fd >= 0 && fakes[i] == fd) return 1;
    return 0;
}

static int open_fake(const char *path, int flags, mode_t mode,
                     int (*real)(const char *, int, ...)) {
    if (strncmp(path, "/dev/spidev", 11) != 0) return real(path, flags, mode);
    int fd = real("/dev/null", O_RDWR, 0);
    for (int i = 0; fd >= 0 && i < MAX_FAKES; i++)
        if (fakes[i] < 0) { fakes[i] = fd; break; }
    return fd;
}

#define OPEN_WRAPPER(name)                                                        \
    int name(const char *path, int flags, ...) {                                  \
        static int (*real)(const char *, int, ...);                               \
        if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
        mode_t mode = 0;                                                          \
        if (flags & (O_CREAT | O_TMPFILE)) {                                      \
            va_list args;                                                         \
            va_start(args, flags);                                                \
            mode = va_arg(args, mode_t);                                          \
            va_end(args);                                                         \
        }                                                                         \
        return open_fake(path, flags, mode, real);                                \
    }
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

int close(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "close");
    for (int i = 0; i < MAX_FAKES; i++)
        if (fakes[i] == fd) fakes[i] = -1;
    return real(fd);
}

ssize_t write(int fd, const void *buffer, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (is_fake(fd)) { bytes_moved += count; transfers++; }
    return real(fd, buffer, count);
}

int ioctl(int fd, unsigned long request, ...) {
    static int (*real)(int, unsigned long, ...);
    if (!real) real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    va_list args;
    va_start(args, request);
    void *argument = va_arg(args, void *);
    va_end(args);
    if (!is_fake(fd) || ((request >> 8) & 0xff) != SPI_MAGIC) return real(fd, request, argument);
    unsigned number = request & 0xff, size = (request >> 16) & 0x3fff;
    if (number == 0 && size % 32 == 0 && size) {  /* SPI_IOC_MESSAGE(n): n transfers of 32 bytes */
        int moved = 0;
        for (unsigned i = 0; i < size / 32; i++) {
            const unsigned char *transfer = (const unsigned char *)argument + 32 * i;
            uint32_t length;
            memcpy(&length, transfer + 16, sizeof length);
            moved += length;
            transfers++;
        }
        bytes_moved += moved;
        return moved;
    }
    if ((request >> 30) & 2)  /* a read: the driver's settings, all zero here */
        memset(argument, 0, size);
    return 0;
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("FAKE_SPIDEV_REPORT");
    FILE *out = path ? fopen(path, "w") : NULL;
    if (!out) return;
    fprintf(out, "bytes %llu transfers %llu\n", bytes_moved, transfers);
    fclose(out);
}
