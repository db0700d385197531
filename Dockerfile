# The course's environment for a class: Debian 13 with PoCL (OpenCL on the CPU), every package that
# ./course tour and ./course test install, and the students' copy of the course (./course handout:
# no solutions, no answers) built in /opt/course, run as the user "student" (uid 1000). Built from
# the instructor's copy, the first stage makes the handout, and only the handout reaches the image.
# .github/workflows/image.yml publishes it to the repository's container registry (ghcr.io);
# .devcontainer/ uses it. Nothing is downloaded but Debian's packages, through apt.
#   docker build -t opencl-course . && mkdir -p out &&
#   docker run --rm -it -v "$PWD/out:/opt/course/out" opencl-course ./course tour
# The base is pinned to a dated tag of Debian's official image (debian:RELEASE-YYYYMMDD, published
# on Docker Hub; a newer one is a deliberate change here). Without access to a registry:
# harness/tools/container-from-debootstrap.sh makes that base from a Debian mirror.
FROM debian:trixie-20260918 AS handout

RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 \
 && rm -rf /var/lib/apt/lists/*
COPY . /src
RUN /src/course handout /handout --no-git

FROM debian:trixie-20260918

# The user: files it writes in a mounted folder belong to the host's first user (uid 1000), not
# to root. It may use sudo, as ./course does to install a package that is missing.
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      python3 git ca-certificates ccache sudo \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 1000 --shell /bin/bash student \
 && echo 'student ALL=(ALL) NOPASSWD: ALL' >/etc/sudoers.d/student \
 && chmod 0440 /etc/sudoers.d/student

# Every build goes through ccache, whose cache the image keeps. With CCACHE_BASEDIR=/ the paths
# it hashes are relative, so a build of the same files in another folder as deep as /opt/course
# (the dev container's /workspaces/NAME) reuses the image's compiles: all but those that bake in
# the source folder's path.
ENV CCACHE_DIR=/home/student/.cache/ccache CCACHE_BASEDIR=/ CMAKE_CXX_COMPILER_LAUNCHER=ccache

COPY --from=handout --chown=student:student /handout /opt/course
USER student
WORKDIR /opt/course
RUN sudo apt-get update -qq \
 && ./course setup \
 && sudo rm -rf /var/lib/apt/lists/*

CMD ["./course", "tour"]
