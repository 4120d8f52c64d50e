module bots

go 1.21
