// The citeproc-js "sys" object both oracle scripts hand to CSL.Engine: items by id, and the
// locale files of citeproc-py's folder (the same locales our renderer uses).
const fs = require("fs");
const path = require("path");

function makeSys(items, localesDir) {
  const byId = new Map(items.map((item) => [String(item.id), item]));
  return {
    retrieveLocale(lang) {
      const file = path.join(localesDir, `locales-${lang}.xml`);
      return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : false;
    },
    retrieveItem(id) {
      return byId.get(String(id));
    },
  };
}

module.exports = { makeSys };
