package replay

// AppendExchange is appendExchange, for the tests of package replay_test.
var AppendExchange = appendExchange
