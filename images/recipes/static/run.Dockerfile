# Run image for statically linked bots (C++, Pascal, Go): nothing but the bot's mount point.
FROM scratch
COPY passwd /etc/passwd
COPY group /etc/group
