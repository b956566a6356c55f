/* Counts executed guest instructions (qemu-user TCG plugin, API version 1 as in QEMU 7.2).
 * Every translated block adds its instruction count inline when it runs; the count is
 * written to `out=` at each system call numbered in a `mark=` argument (one per number) and at exit. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_trans_cb(
    qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_inline(
    struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_syscall_cb(
    qemu_plugin_id_t id,
    void (*cb)(qemu_plugin_id_t, unsigned int, int64_t, uint64_t, uint64_t, uint64_t,
               uint64_t, uint64_t, uint64_t, uint64_t, uint64_t));
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    void (*cb)(qemu_plugin_id_t, void *), void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t executed;  /* not atomic: threads running at once may lose a few counts */
static FILE *out;
static int64_t marks[16];
static int mark_count;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed,
                                             qemu_plugin_tb_n_insns(tb));
}

static void syscall_entered(qemu_plugin_id_t id, unsigned int cpu, int64_t number,
                            uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                            uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8) {
    for (int i = 0; i < mark_count; i++)
        if (marks[i] == number) {
            fprintf(out, "mark %" PRId64 " %" PRIu64 "\n", number, executed);
            fflush(out);
        }
}

static void exiting(qemu_plugin_id_t id, void *unused) {
    fprintf(out, "exit %" PRIu64 "\n", executed);
    fclose(out);
}

__attribute__((visibility("default"))) int qemu_plugin_install(
    qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            path = argv[i] + 4;
        } else if (strncmp(argv[i], "mark=", 5) == 0) {
            if (mark_count < 16) marks[mark_count++] = strtoll(argv[i] + 5, NULL, 10);
        }
    }
    out = path ? fopen(path, "w") : stderr;
    if (!out) return 1;
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    if (mark_count) qemu_plugin_register_vcpu_syscall_cb(id, syscall_entered);
    qemu_plugin_register_atexit_cb(id, exiting, NULL);
    return 0;
}
