# C++ compile image: Debian's GCC at the versions pinned in images/lock.json.
ARG BASE
FROM ${BASE}
ARG PACKAGES
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $PACKAGES \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*
COPY compile.sh /judge/compile
RUN chmod 0755 /judge/compile
