// Package disk says how much room a directory's disk has left.
package disk
