#!/usr/bin/env bash
# The real-engine test rig: three Docker engines on this machine acting as three hosts.
#
#   bash scripts/engines.sh up             start (or reuse) all three, build test images, write engines.json
#   bash scripts/engines.sh status         which engines answer
#   bash scripts/engines.sh stop  NAME     SIGTERM the engine and wait until it is gone   (plain, tls)
#   bash scripts/engines.sh crash NAME     kill -9 the engine and wait until it is gone   (plain, tls)
#   bash scripts/engines.sh start NAME     start it again with the same flags            (plain, tls)
#   bash scripts/engines.sh down           remove everything `up` made
#
# Engines: "local" is the default unix socket (/var/run/docker.sock; the system dockerd,
# started here when nothing answers); "plain" listens on tcp://127.0.0.1:$BERTH_RIG_PLAIN_PORT;
# "tls" on tcp://127.0.0.1:$BERTH_RIG_TLS_PORT with mutual TLS (certificates made with openssl
# at run time, plus a second, untrusted CA and client certificate for negative tests).
# The extra engines have their own data root, exec root, pid file, socket and bridge, and
# --iptables=false so the main engine's rules stay untouched (shared/recipes/test-engines.md).
# A Docker registry (Debian's docker-registry, plain http) listens on 127.0.0.1:$BERTH_RIG_REGISTRY_PORT
# for image update checks; engines trust loopback registries without TLS.
# State lives in $BERTH_RIG_DIR (default /tmp/berth-rig); tests read $BERTH_RIG_DIR/engines.json.
set -euo pipefail

RIG="${BERTH_RIG_DIR:-/tmp/berth-rig}"
PLAIN_PORT="${BERTH_RIG_PLAIN_PORT:-23750}"
TLS_PORT="${BERTH_RIG_TLS_PORT:-23760}"
REGISTRY_PORT="${BERTH_RIG_REGISTRY_PORT:-25000}"
LOCAL_SOCK=/var/run/docker.sock
BUSYBOX_IMAGE=berth-test/busybox:1.0
HTTPD_IMAGE=berth-test/httpd:1.0

log() { printf 'engines: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

# name → index (bridge 172.<octet>.0.0/16, data root /var/lib/berth-rig-<name>)
octet_of() { case "$1" in plain) echo 31 ;; tls) echo 30 ;; *) die "unknown engine '$1' (plain or tls)" ;; esac; }
run_dir() { echo "/run/berth-rig-$1"; }
sock_of() { echo "$(run_dir "$1")/docker.sock"; }

answers() { timeout 5 docker -H "unix://$1" version --format '{{.Server.Version}}' >/dev/null 2>&1; }

ensure_packages() {
  local missing=()
  command -v dockerd >/dev/null || missing+=(docker.io)
  [ -x /bin/busybox ] || missing+=(busybox-static)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v docker-registry >/dev/null || missing+=(docker-registry)
  command -v curl >/dev/null || missing+=(curl)
  command -v ip >/dev/null || missing+=(iproute2)
  command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
  command -v prometheus >/dev/null || missing+=(prometheus)
  [ ${#missing[@]} -eq 0 ] && return
  [ "$(id -u)" = 0 ] || die "missing ${missing[*]} and not root"
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

ensure_local() {
  if answers "$LOCAL_SOCK"; then return; fi
  log "starting the system dockerd"
  setsid dockerd </dev/null >"$RIG/dockerd-local.log" 2>&1 &
  touch "$RIG/local-started-by-rig"
  wait_for_socket "$LOCAL_SOCK" || die "system dockerd did not answer; see $RIG/dockerd-local.log"
}

wait_for_socket() {
  local i
  for i in $(seq 300); do answers "$1" && return 0; sleep 0.1; done
  return 1
}

make_certs() {
  local t="$RIG/tls"
  [ -f "$t/cert.pem" ] && [ -f "$t/wrong/cert.pem" ] && return
  mkdir -p "$t/wrong"
  (
    cd "$t"
    local x=(-CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 3650)
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=berth-rig-ca -keyout ca-key.pem -out ca.pem
    openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout server-key.pem -out server.csr
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >server.ext
    openssl x509 -req -in server.csr "${x[@]}" -out server-cert.pem -extfile server.ext
    openssl req -newkey rsa:2048 -nodes -subj /CN=berth-client -keyout key.pem -out client.csr
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -in client.csr "${x[@]}" -out cert.pem -extfile client.ext
    # An unrelated CA and a client certificate it signed: the engine must refuse it.
    cd wrong
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=untrusted-ca -keyout ca-key.pem -out ca.pem
    openssl req -newkey rsa:2048 -nodes -subj /CN=intruder -keyout key.pem -out client.csr
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 3650 -out cert.pem -extfile ../client.ext
    rm -f ./*.csr ../*.csr
    chmod 600 ./*key.pem ../*key.pem
  ) >/dev/null 2>&1 || die "openssl failed"
}

listen_flags() {
  case "$1" in
    plain) echo "-H tcp://127.0.0.1:$PLAIN_PORT" ;;
    tls) echo "-H tcp://127.0.0.1:$TLS_PORT --tlsverify --tlscacert $RIG/tls/ca.pem --tlscert $RIG/tls/server-cert.pem --tlskey $RIG/tls/server-key.pem" ;;
  esac
}

# Removes pid files whose process is gone or a zombie (a zombie dockerd blocks a restart).
clear_stale_pids() {
  local f pid
  for f in "$(run_dir "$1")/docker.pid" "$(run_dir "$1")/exec/containerd/containerd.pid"; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    if ! ps -o stat= -p "$pid" 2>/dev/null | grep -qv Z; then rm -f "$f"; fi
  done
}

start_engine() {
  local name=$1 octet br dir
  octet=$(octet_of "$name")
  br="berth${name}0"
  dir=$(run_dir "$name")
  answers "$(sock_of "$name")" && return
  ip link show "$br" >/dev/null 2>&1 || {
    ip link add "$br" type bridge
    ip addr add "172.$octet.0.1/16" dev "$br"
    ip link set "$br" up
  }
  mkdir -p "$dir" "/var/lib/berth-rig-$name"
  clear_stale_pids "$name"
  printf '{"deprecated-key-path":"/var/lib/berth-rig-%s/key.json","labels":["berth.rig.engine=%s"]}\n' "$name" "$name" >"$dir/daemon.json"
  # shellcheck disable=SC2046 # listen_flags is a list of words on purpose
  setsid dockerd --config-file "$dir/daemon.json" --data-root "/var/lib/berth-rig-$name" \
    --exec-root "$dir/exec" --pidfile "$dir/docker.pid" -H "unix://$(sock_of "$name")" $(listen_flags "$name") \
    --bridge "$br" --iptables=false --ip-masq=false --ip-forward=false --cgroup-parent "/berth-rig-$name" \
    </dev/null >"$RIG/dockerd-$name.log" 2>&1 &
  wait_for_socket "$(sock_of "$name")" || die "engine $name did not answer; see $RIG/dockerd-$name.log"
}

# SIGNAL is TERM (stop) or KILL (crash); waits until dockerd and its containerd are gone.
stop_engine() {
  local name=$1 signal=$2 dir pid cpid
  dir=$(run_dir "$name")
  pid=$(cat "$dir/docker.pid" 2>/dev/null) || return 0
  cpid=$(cat "$dir/exec/containerd/containerd.pid" 2>/dev/null || echo "$pid")
  kill "-$signal" "$pid" 2>/dev/null || true
  [ "$signal" = KILL ] && kill -KILL "$cpid" 2>/dev/null || true
  local i
  for i in $(seq 600); do
    if ! ps -o stat= -p "$pid" 2>/dev/null | grep -qv Z && ! ps -o stat= -p "$cpid" 2>/dev/null | grep -qv Z; then
      return 0
    fi
    sleep 0.1
  done
  die "engine $name did not stop"
}

build_images() {
  local sock=$1 root
  if docker -H "unix://$sock" image inspect "$BUSYBOX_IMAGE" "$HTTPD_IMAGE" >/dev/null 2>&1; then return; fi
  root=$(mktemp -d)
  mkdir -p "$root/bin" "$root/tmp" "$root/www"
  chmod 1777 "$root/tmp"
  cp /bin/busybox "$root/bin/"
  for applet in $(/bin/busybox --list); do [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"; done
  echo ok >"$root/www/health"
  echo '<h1>ok</h1>' >"$root/www/index.html"
  tar -C "$root" -c . | docker -H "unix://$sock" import - "$BUSYBOX_IMAGE" >/dev/null
  tar -C "$root" -c . | docker -H "unix://$sock" import \
    -c 'CMD ["httpd","-f","-p","8080","-h","/www"]' \
    -c 'HEALTHCHECK --interval=2s --timeout=1s --retries=2 CMD wget -qO- 127.0.0.1:8080/health' \
    - "$HTTPD_IMAGE" >/dev/null
  rm -rf "$root"
}

start_registry() {
  local dir="$RIG/registry"
  if curl -sf "http://127.0.0.1:$REGISTRY_PORT/v2/" >/dev/null 2>&1; then return; fi
  mkdir -p "$dir/data"
  printf 'version: 0.1\nlog: {level: warn}\nstorage: {filesystem: {rootdirectory: %s}, delete: {enabled: true}}\nhttp: {addr: 127.0.0.1:%s, secret: berth-rig}\n' \
    "$dir/data" "$REGISTRY_PORT" >"$dir/config.yml"
  setsid docker-registry serve "$dir/config.yml" </dev/null >"$dir/registry.log" 2>&1 &
  echo $! >"$dir/registry.pid"
  local i
  for i in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$REGISTRY_PORT/v2/" >/dev/null 2>&1 && return
    sleep 0.05
  done
  die "the registry did not answer on 127.0.0.1:$REGISTRY_PORT (see $dir/registry.log)"
}

write_json() {
  local t="$RIG/tls"
  cat >"$RIG/engines.json" <<JSON
{
  "engines": [
    { "name": "local", "url": "unix://$LOCAL_SOCK", "socket": "unix://$LOCAL_SOCK" },
    { "name": "plain", "url": "tcp://127.0.0.1:$PLAIN_PORT", "socket": "unix://$(sock_of plain)",
      "pidFile": "$(run_dir plain)/docker.pid" },
    { "name": "tls", "url": "tcp://127.0.0.1:$TLS_PORT", "socket": "unix://$(sock_of tls)",
      "pidFile": "$(run_dir tls)/docker.pid",
      "tls": { "ca": "$t/ca.pem", "cert": "$t/cert.pem", "key": "$t/key.pem" },
      "wrongTls": { "ca": "$t/ca.pem", "cert": "$t/wrong/cert.pem", "key": "$t/wrong/key.pem" } }
  ],
  "images": { "busybox": "$BUSYBOX_IMAGE", "httpd": "$HTTPD_IMAGE" },
  "registry": "127.0.0.1:$REGISTRY_PORT",
  "script": "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/engines.sh"
}
JSON
}

# Containers a benchmark left behind (its own label): every test's supervisors list and
# inspect them all, so a thousand of them make hosts slow to come online.
clear_leftovers() {
  local ids
  ids=$(timeout 60 docker -H "unix://$1" ps -aq --filter label=berth-bench=1 2>/dev/null || true)
  [ -z "$ids" ] && return
  log "removing $(echo "$ids" | wc -l) leftover bench containers on $1"
  echo "$ids" | xargs -r -n 50 timeout 120 docker -H "unix://$1" rm -f >/dev/null 2>&1 || true
}

cmd_up() {
  ensure_packages
  mkdir -p "$RIG"
  ensure_local
  make_certs
  start_engine plain
  start_engine tls
  local sock
  for sock in "$LOCAL_SOCK" "$(sock_of plain)" "$(sock_of tls)"; do
    build_images "$sock"
    clear_leftovers "$sock"
  done
  start_registry
  write_json
  log "ready: $RIG/engines.json"
}

cmd_status() {
  local name sock
  for name in local plain tls; do
    if [ "$name" = local ]; then sock=$LOCAL_SOCK; else sock=$(sock_of "$name"); fi
    if answers "$sock"; then echo "$name: up"; else echo "$name: down"; fi
  done
}

# Test containers carry the label berth-test=1; the extra engines go away whole.
cmd_down() {
  if answers "$LOCAL_SOCK"; then
    local ids
    ids=$(docker -H "unix://$LOCAL_SOCK" ps -aq --filter label=berth-test=1)
    [ -n "$ids" ] && docker -H "unix://$LOCAL_SOCK" rm -f $ids >/dev/null 2>&1 || true
  fi
  local name
  for name in plain tls; do
    (stop_engine "$name" TERM) || stop_engine "$name" KILL || true
    ip link del "berth${name}0" 2>/dev/null || true
    umount "/var/lib/berth-rig-$name" 2>/dev/null || true
    # dockerd leaves bind mounts behind; unmount the deepest first.
    { grep -o " /var/lib/berth-rig-$name[^ ]*\| $(run_dir "$name")[^ ]*" /proc/mounts || true; } | sort -r |
      while read -r m; do umount "$m" 2>/dev/null || true; done
    rm -rf "/var/lib/berth-rig-$name" "$(run_dir "$name")"
  done
  if [ -f "$RIG/registry/registry.pid" ]; then
    kill "$(cat "$RIG/registry/registry.pid")" 2>/dev/null || true
  fi
  if [ -f "$RIG/local-started-by-rig" ] && [ -f /var/run/docker.pid ]; then
    kill "$(cat /var/run/docker.pid)" 2>/dev/null || true
  fi
  rm -rf "$RIG"
  log "removed"
}

needs_extra() { case "${1:-}" in plain | tls) ;; local) die "the local engine is the machine's own; use plain or tls" ;; *) die "usage: $0 ${2} plain|tls" ;; esac; }

case "${1:-}" in
  up) cmd_up ;;
  status) cmd_status ;;
  down) cmd_down ;;
  stop) needs_extra "${2:-}" stop && stop_engine "$2" TERM ;;
  crash) needs_extra "${2:-}" crash && stop_engine "$2" KILL ;;
  start) needs_extra "${2:-}" start && start_engine "$2" ;;
  *) die "usage: $0 up|status|down|stop NAME|crash NAME|start NAME" ;;
esac
