// Package websub owns the subscriber side of WebSub as the ResourceSync
// Framework Notification and Change Notification specifications use it: it
// subscribes a Destination to a Source's notification channel (a WebSub
// topic) at a hub, answers the hub's verification of intent, renews leases
// before they run out, checks the X-Hub-Signature of every delivery against
// the subscription's secret, parses the payload (a <urlset> whose top-level
// rs:md says framework-notification or change-notification) and hands valid
// notifications to the consumer as Notification values.
//
// A Subscriber is an http.Handler for its callbacks (one random path per
// subscription under Options.CallbackURL), Run renews leases, Notifications
// delivers what arrived, and Close unsubscribes everything. It talks to hubs
// only through the Doer it is given, and reads time only through
// Options.Now and Options.After.
//
// Notifications are triggers: the URLs in them come from a hub, possibly a
// third party, so a consumer must check that they belong to the Source it
// watches before it fetches anything.
package websub
