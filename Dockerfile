# The course's environment, pinned: Debian 13 with PoCL (OpenCL on the CPU) and every package that
# ./course tour and ./course test install, with the course built in /opt/course. A class can use it
# through .devcontainer/ (VS Code, GitHub Codespaces) or directly:
#   docker build -t opencl-course . && docker run --rm -it opencl-course ./course tour
# The list of packages is not repeated here: ./course setup installs what its PACKAGES list names
# (Debian 13 has no oclgrind: the checker runs without it). Without access to a registry:
# harness/tools/container-from-debootstrap.sh builds this image from a Debian mirror.
FROM debian:13

RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/*

COPY . /opt/course
WORKDIR /opt/course
RUN apt-get update -qq && ./course setup && rm -rf /var/lib/apt/lists/*

CMD ["./course", "tour"]
