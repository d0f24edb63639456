-- CreateTable
CREATE TABLE "AlertWord" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "word" TEXT NOT NULL,

    CONSTRAINT "AlertWord_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AlertWord_realmId_idx" ON "AlertWord"("realmId");

-- CreateIndex
CREATE INDEX "AlertWord_userId_idx" ON "AlertWord"("userId");

-- AddForeignKey
ALTER TABLE "AlertWord" ADD CONSTRAINT "AlertWord_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- An alert word is unique per user ignoring case, as Zulip compares them: the database refuses the
-- second of two concurrent additions of the same word.
CREATE UNIQUE INDEX "AlertWord_userId_lower_word_key" ON "AlertWord" ("userId", lower("word"));
