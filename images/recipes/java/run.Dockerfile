# Java run image: only the JRE's files and the libraries they link, copied out of a Debian
# install into an empty image: no shell, no other program.
ARG BASE
FROM ${BASE} AS jre
ARG PACKAGES
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $PACKAGES \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*
COPY trim.sh /trim.sh
RUN sh /trim.sh /out

FROM scratch
COPY --from=jre /out/ /
