# Sourced by scripts/image.sh and scripts/test-image.sh: picks the container engine and makes Podman start
# containers on this machine.
#
#   engine            podman, else docker (ENGINE=docker chooses); exits with one line when neither is here
#   engine_settings   for Podman only: when a container cannot start with the machine's defaults, writes a
#                     containers.conf that can (CONTAINERS_CONF, in .build/image) and says why, once:
#                     crun refuses a host whose cgroups are mounted in hybrid v1/v2 mode (runc does not), and
#                     Podman's default open-files and processes limits can be above what this shell may set.
#   ctr ARGS...       the engine with ARGS, as root (rootful Podman: the tests run containers as uid 10001 on
#                     host volumes) and with those settings
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

engine=${ENGINE:-}
if [ -z "$engine" ]; then
  if command -v podman >/dev/null; then engine=podman
  elif command -v docker >/dev/null; then engine=docker
  else echo "segue image: neither podman nor docker is installed (apt-get install podman)" >&2; exit 1
  fi
fi
command -v "$engine" >/dev/null || { echo "segue image: $engine is not installed" >&2; exit 1; }

ctr() { $sudo ${CONTAINERS_CONF:+env CONTAINERS_CONF="$CONTAINERS_CONF"} "$engine" "$@"; }

# engine_settings IMAGE: checks that IMAGE starts; for Podman, finds the settings that let it, one at a time.
engine_settings() {
  local image=$1 conf=.build/image/containers.conf why ulimits="" runtime="" attempt
  [ "$engine" = podman ] || return 0
  if [ -z "${CONTAINERS_CONF:-}" ] && [ -s "$conf" ]; then export CONTAINERS_CONF=$PWD/$conf; fi
  for attempt in 1 2 3; do
    why=$(ctr run --rm "$image" true 2>&1) && return 0
    if [[ $why == *setrlimit* ]] && [ -z "$ulimits" ]; then
      # Podman's default limits are above this shell's; 4096 processes is plenty for a container of segue.
      ulimits="default_ulimits = [\"nofile=$(ulimit -Hn):$(ulimit -Hn)\", \"nproc=4096:4096\"]"
    elif [[ $why == *"cgroups in hybrid mode"* ]] && [ -z "$runtime" ] && command -v runc >/dev/null; then
      runtime='runtime = "runc"'
    else
      echo "segue image: a container does not start here${CONTAINERS_CONF:+ (with $CONTAINERS_CONF)}: $why" >&2
      exit 1
    fi
    mkdir -p .build/image
    printf '# Written by scripts/container-engine.sh: Podman'"'"'s defaults cannot start a container here.\n[containers]\n%s\n[engine]\n%s\n' \
      "$ulimits" "$runtime" >"$conf"
    export CONTAINERS_CONF=$PWD/$conf
    echo "segue image: Podman's defaults cannot start a container here (${why#Error: }); $conf sets ${runtime:-$ulimits}" >&2
  done
  echo "segue image: a container does not start here (with $CONTAINERS_CONF): $why" >&2
  exit 1
}
