/* box-launch: how a Docker box's container starts its bot (sandbox/backends/docker.py).
 *
 * The container's one command, in place of `/bin/sh -c` then `/usr/bin/env -i` then the
 * interpreter installing the filter through ctypes:
 *
 *   box-launch --stdin PATH --stdout PATH --stderr PATH [--seccomp PATH]
 *              [--env NAME=VALUE]... -- PROGRAM [ARGUMENT]...
 *
 * in this order, before anything of the bot's runs:
 *
 * 1. opens the box's named pipes onto fd 0, 1 and 2, as the shell's `<in >out 2>log`
 *    did (stdin first: the referee waits for a reader there before it writes);
 * 2. sets no_new_privs and installs the box's seccomp filter, the program
 *    `sandbox.seccomp.box_filter` makes, from the file the referee wrote to the box's
 *    /io (stacked on Docker's own profile). A filter that cannot be read or installed is
 *    a line on stderr (the box's log) and exit status 1: the bot never runs;
 * 3. replaces the whole environment with the NAME=VALUE pairs given (`BOX_ENV`), as
 *    `env -i` did, and execs PROGRAM, found on that environment's PATH.
 *
 * So the filter is in force from the interpreter's first instruction (before, from the
 * first instructions of its start-up code), the container runs one small static program
 * before the interpreter instead of two (a shell and env), and the bot's interpreter needs
 * neither ctypes nor libffi. Compiled into the bot image when it is built
 * (deploy/bot-image/Dockerfile); the tests build it with the host's compiler.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define MAX_ENV 64

extern char **environ;

/* "agon: what: detail" on stderr (the box's log once redirected), then exit. */
_Noreturn static void fail(int status, const char *what, const char *detail)
{
    char line[512]; /* one write, so the line reaches the log whole */
    int length = snprintf(line, sizeof line, "agon: %s: %s\n", what, detail);
    if (length > 0) {
        size_t size = (size_t)length < sizeof line ? (size_t)length : sizeof line - 1;
        ssize_t ignored = write(2, line, size);
        (void)ignored;
    }
    _exit(status);
}

_Noreturn static void usage(const char *detail)
{
    fail(2, detail,
         "usage: box-launch --stdin PATH --stdout PATH --stderr PATH [--seccomp PATH] "
         "[--env NAME=VALUE]... -- PROGRAM [ARGUMENT]...");
}

/* `path` opened onto `target`, as a shell's redirection. */
static void redirect(const char *path, int flags, int target)
{
    int fd = open(path, flags);
    if (fd < 0) {
        fail(1, path, strerror(errno));
    }
    if (fd != target) {
        if (dup2(fd, target) < 0) {
            fail(1, path, strerror(errno));
        }
        close(fd);
    }
}

static void install_filter(const char *path)
{
    /* One instruction more than the kernel takes: a longer file is refused, not cut. */
    static struct sock_filter program[BPF_MAXINSNS + 1];
    const char *what = "the box's seccomp filter could not be installed";
    char *bytes = (char *)program;
    size_t length = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fail(1, what, strerror(errno));
    }
    for (;;) {
        ssize_t got = read(fd, bytes + length, sizeof program - length);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            fail(1, what, strerror(errno));
        }
        if (got == 0) {
            break;
        }
        length += (size_t)got;
        if (length == sizeof program) {
            fail(1, what, "the program is too long");
        }
    }
    close(fd);
    if (length == 0 || length % sizeof program[0] != 0) {
        fail(1, what, "the program is not a whole number of instructions");
    }
    struct sock_fprog installed = {
        .len = (unsigned short)(length / sizeof program[0]),
        .filter = program,
    };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &installed, 0, 0) != 0) {
        fail(1, what, strerror(errno));
    }
}

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *err = NULL, *filter = NULL;
    char *env[MAX_ENV + 1];
    int count = 0;
    int index = 1;
    for (; index < argc; index++) {
        const char *option = argv[index];
        if (strcmp(option, "--") == 0) {
            index++;
            break;
        }
        if (index + 1 >= argc) {
            usage(option);
        }
        char *value = argv[++index];
        if (strcmp(option, "--stdin") == 0) {
            in = value;
        } else if (strcmp(option, "--stdout") == 0) {
            out = value;
        } else if (strcmp(option, "--stderr") == 0) {
            err = value;
        } else if (strcmp(option, "--seccomp") == 0) {
            filter = value;
        } else if (strcmp(option, "--env") == 0) {
            if (count == MAX_ENV || strchr(value, '=') == NULL) {
                usage(value);
            }
            env[count++] = value;
        } else {
            usage(option);
        }
    }
    if (in == NULL || out == NULL || err == NULL) {
        usage("the three pipes are required");
    }
    if (index >= argc) {
        usage("no program");
    }
    env[count] = NULL;

    redirect(in, O_RDONLY, 0);
    redirect(out, O_WRONLY, 1);
    redirect(err, O_WRONLY, 2);
    if (filter != NULL) {
        install_filter(filter);
    }
    environ = env;
    execvp(argv[index], argv + index);
    fail(127, argv[index], strerror(errno));
    return 127;
}
