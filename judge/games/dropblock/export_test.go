package dropblock

// SimpleBot is the sample bots' strategy, for the end-to-end test to hold the bots to it.
var SimpleBot = simpleBot
