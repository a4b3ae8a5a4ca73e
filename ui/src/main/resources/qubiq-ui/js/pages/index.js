// Every page of the signed-in console, in navigation order, with the permission it needs.
import * as storeForward from "./store-forward.js";
import * as quarantine from "./quarantine.js";
import * as configHistory from "./config-history.js";
import * as historianSettings from "./historian-settings.js";
import * as connections from "./connections.js";
import * as tags from "./tags.js";
import * as trends from "./trends.js";
import * as audit from "./audit.js";
import * as dataIntegrity from "./data-integrity.js";
import * as users from "./users.js";
import * as account from "./account.js";

export const PAGES = [
  { path: "store-forward", title: "Store & Forward", permission: "view_connections", module: storeForward },
  { path: "store-forward/:connection/quarantine", title: "Quarantine", permission: "view_connections",
    nav: false, navParent: "store-forward", module: quarantine },
  { path: "configuration", title: "Configuration", permission: "view_connections", module: configHistory },
  { path: "historian", title: "Historian", permission: "view_connections", module: historianSettings },
  { path: "connections", title: "Connections", permission: "view_connections", module: connections },
  { path: "tags", title: "Tags", permission: "view_tags", module: tags },
  { path: "trends", title: "Trends", permission: "view_history", module: trends },
  { path: "data-integrity", title: "Data integrity", permission: "view_connections", module: dataIntegrity },
  { path: "audit", title: "Audit", permission: "view_audit", module: audit },
  { path: "users", title: "Users", permission: "manage_users", module: users },
  { path: "account", title: "Account", permission: null, nav: false, module: account },
];
