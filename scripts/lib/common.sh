# shellcheck shell=bash
# Helpers shared by the scripts in scripts/. Source it; it defines functions and PS_REPO_ROOT only.

# Absolute path of the repository root (the parent of scripts/).
PS_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# The four standard MNIST IDX file names (each may also be present gzip-compressed, with .gz).
PS_MNIST_FILES=(train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte)

# ps_die MESSAGE... : print "<script>: MESSAGE" on stderr and exit 1.
ps_die() {
    printf '%s: %s\n' "$(basename "$0")" "$*" >&2
    exit 1
}

# ps_info MESSAGE... : print "<script>: MESSAGE" on stdout.
ps_info() {
    printf '%s: %s\n' "$(basename "$0")" "$*"
}

# ps_mnist_missing DIR : print the MNIST files absent from DIR (neither plain nor .gz), one a line.
ps_mnist_missing() {
    local dir=$1 f
    for f in "${PS_MNIST_FILES[@]}"; do
        if [[ ! -s "$dir/$f" && ! -s "$dir/$f.gz" ]]; then
            printf '%s\n' "$f"
        fi
    done
}

# ps_normalize_role TEXT : print scheduler|server|worker for a MindSpore or plain role name
# (case-insensitive); return 1 for anything else.
ps_normalize_role() {
    case "${1,,}" in
        ms_sched | scheduler) echo scheduler ;;
        ms_pserver | server) echo server ;;
        ms_worker | worker) echo worker ;;
        *) return 1 ;;
    esac
}

# ps_jar_glob ROLE : where the exec jar of ROLE is looked for (a glob, for messages).
ps_jar_glob() {
    local role=$1
    if [[ -n "${PS_JAR_DIR:-}" ]]; then
        printf '%s/%s-service-*-exec.jar' "$PS_JAR_DIR" "$role"
    else
        printf '%s/%s-service/target/%s-service-*-exec.jar' "$PS_REPO_ROOT" "$role" "$role"
    fi
}

# ps_find_jar ROLE : print the path of the newest exec jar of ROLE (scheduler|server|worker);
# return 1 (printing nothing) when there is none. PS_JAR_DIR, when set, is searched instead of
# <repo>/<role>-service/target.
ps_find_jar() {
    local role=$1 newest="" jar
    local -a matches
    shopt -s nullglob
    if [[ -n "${PS_JAR_DIR:-}" ]]; then
        matches=("$PS_JAR_DIR/$role-service-"*-exec.jar)
    else
        matches=("$PS_REPO_ROOT/$role-service/target/$role-service-"*-exec.jar)
    fi
    shopt -u nullglob
    for jar in "${matches[@]}"; do
        if [[ -z "$newest" || "$jar" -nt "$newest" ]]; then
            newest=$jar
        fi
    done
    [[ -n "$newest" ]] || return 1
    printf '%s\n' "$newest"
}

# ps_port_in_use PORT : succeed when something listens on 127.0.0.1:PORT (TCP).
ps_port_in_use() {
    local port=$1
    if command -v ss >/dev/null 2>&1; then
        [[ -n "$(ss -Htln "sport = :$port" 2>/dev/null)" ]]
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
    fi
}
