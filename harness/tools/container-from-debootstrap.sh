#!/usr/bin/env bash
# Builds the course's container image (the Dockerfile) where no container registry can be reached
# but a Debian mirror can (a lab behind a proxy, a campus mirror): the Dockerfile's base image
# (its first FROM) is made here with debootstrap from the mirror and stored under that name, then
# buildah builds the Dockerfile on it. Run as root from the course's folder:
#
#   sudo apt-get install -y debootstrap buildah
#   sudo harness/tools/container-from-debootstrap.sh [--mirror URL] [--tag NAME] [--test]
#
#   --mirror URL  the Debian mirror (default: http://deb.debian.org/debian); the image's apt uses it too
#   --tag NAME    the image's name (default: opencl-course)
#   --test        then runs ./course test inside the image (about as long as on the machine itself)
#
# buildah's own settings apply: STORAGE_DRIVER=vfs where overlay mounts are not allowed (inside
# another container), BUILDAH_ISOLATION=chroot where user namespaces are not. podman sees the
# image at once (podman run --rm -it opencl-course ./course tour); for Docker:
#   buildah push opencl-course docker-archive:opencl-course.tar && docker load -i opencl-course.tar
# Exit codes: 0 built (and passed), 1 the build or the test failed, 2 a tool or the base is missing.
set -uo pipefail

die() { printf 'container-from-debootstrap: %s\n' "$2" >&2; exit "$1"; }

mirror=http://deb.debian.org/debian tag=opencl-course test=0
while [ $# -gt 0 ]; do
  case $1 in
    --mirror) [ $# -ge 2 ] || die 2 "--mirror needs a URL"; mirror=$2; shift 2 ;;
    --tag) [ $# -ge 2 ] || die 2 "--tag needs a name"; tag=$2; shift 2 ;;
    --test) test=1; shift ;;
    -h|--help) sed -n '2,/^# Exit codes/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die 2 "unknown argument '$1' (--help shows the usage)" ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ "$(id -u)" = 0 ] || die 2 "debootstrap needs root: run it with sudo"
for tool in debootstrap buildah; do
  command -v "$tool" >/dev/null 2>&1 || die 2 "$tool is missing: sudo apt-get install -y debootstrap buildah"
done

# The base the Dockerfile names (a dated tag: debian:trixie-20260918), and the release it stands
# for. debootstrap makes that release as the mirror has it today, stored under the dated name.
from=$(awk 'toupper($1) == "FROM" { print $2; exit }' "$root/Dockerfile")
case $from in
  debian:13|debian:trixie|debian:trixie-*) suite=trixie ;;
  debian:12|debian:bookworm|debian:bookworm-*) suite=bookworm ;;
  *) die 2 "the Dockerfile starts FROM '$from'; this script makes Debian 12 or 13 (bookworm, trixie) only" ;;
esac

work=$(mktemp -d /var/tmp/course-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
echo "Making the $from base ($suite, minbase) from $mirror ..."
debootstrap --variant=minbase "$suite" "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 20 "$work/debootstrap.log" >&2; die 2 "debootstrap failed"; }
# apt's sources as Debian's own image has them (the security archive only beside Debian's mirror).
rm -f "$work/rootfs/etc/apt/sources.list"
{
  printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$mirror" "$suite" "$suite"
  [ "$mirror" = http://deb.debian.org/debian ] &&
    printf '\nTypes: deb\nURIs: http://deb.debian.org/debian-security\nSuites: %s-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$suite"
} >"$work/rootfs/etc/apt/sources.list.d/debian.sources"
rm -rf "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/var/cache/apt/archives/"*.deb
tar -C "$work/rootfs" --numeric-owner -cf "$work/base.tar" . || die 2 "could not pack the base"
rm -rf "$work/rootfs"

container=$(buildah from scratch) || die 2 "buildah could not start an image"
buildah add "$container" "$work/base.tar" / >/dev/null &&
  buildah config --cmd bash "$container" &&
  buildah commit -q --rm "$container" "docker.io/library/$from" >/dev/null ||
  die 2 "buildah could not store the base as $from"
echo "Base stored as $from ($(($(date +%s) - start)) s). Building the Dockerfile as $tag ..."

buildah bud --layers=false -t "$tag" -f "$root/Dockerfile" "$root" || die 1 "the image did not build"
echo "Built $tag in $(($(date +%s) - start)) s."
[ $test = 1 ] || exit 0

echo "Running ./course test in $tag ..."
container=$(buildah from "$tag") || die 1 "buildah could not start $tag"
buildah run "$container" -- ./course test
status=$?
buildah rm "$container" >/dev/null
echo "./course test in $tag: exit $status, $(($(date +%s) - start)) s in all"
[ $status = 0 ] || exit 1
