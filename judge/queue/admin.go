package queue

// Admin is the administration of the judge's stores, apart from the transport of jobs and
// results (Queue): what they hold (Usage), their backup (Backup; Restore makes a store from
// one), and what ages out of them (ExpireReplays, ExpireResults, ExpireArtifacts, ExpireKeys,
// DeleteObjects, Trim). judge store and judge serve's housekeeping use it; a daemon, a
// tournament and the portal need none of it.
type Admin struct{ q *Queue }

// Admin is the administration of q's stores.
func (q *Queue) Admin() Admin { return Admin{q} }
