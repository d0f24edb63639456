-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Realm" (
    "id" SERIAL NOT NULL,
    "stringId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deactivated" BOOLEAN NOT NULL DEFAULT false,
    "emptyTopicDisplayName" TEXT NOT NULL DEFAULT 'general chat',
    "inviteRequired" BOOLEAN NOT NULL DEFAULT true,
    "emailsRestrictedToDomains" BOOLEAN NOT NULL DEFAULT false,
    "enableSpectatorAccess" BOOLEAN NOT NULL DEFAULT false,
    "moderationRequestChannelId" INTEGER,
    "newStreamAnnouncementsChannelId" INTEGER,
    "signupAnnouncementsChannelId" INTEGER,
    "zulipUpdateAnnouncementsChannelId" INTEGER,
    "messageRetentionDays" INTEGER,
    "waitingPeriodThreshold" INTEGER NOT NULL DEFAULT 0,
    "allowMessageEditing" BOOLEAN NOT NULL DEFAULT true,
    "allowEditHistory" BOOLEAN NOT NULL DEFAULT true,
    "messageContentEditLimitSeconds" INTEGER DEFAULT 600,
    "messageContentDeleteLimitSeconds" INTEGER,
    "moveMessagesWithinStreamLimitSeconds" INTEGER DEFAULT 604800,
    "moveMessagesBetweenStreamsLimitSeconds" INTEGER DEFAULT 604800,
    "mandatoryTopics" BOOLEAN NOT NULL DEFAULT false,
    "topicsPolicy" TEXT NOT NULL DEFAULT 'allow_empty_topic',
    "emailAddressVisibility" INTEGER NOT NULL DEFAULT 1,
    "defaultLanguage" TEXT NOT NULL DEFAULT 'en',
    "videoChatProvider" INTEGER NOT NULL DEFAULT 1,
    "maxFileUploadSizeMib" INTEGER NOT NULL DEFAULT 25,
    "canAccessAllUsersGroupId" INTEGER,
    "canAddCustomEmojiGroupId" INTEGER,
    "canAddSubscribersGroupId" INTEGER,
    "canCreateBotsGroupId" INTEGER,
    "canCreateGroupsGroupId" INTEGER,
    "canCreatePrivateChannelGroupId" INTEGER,
    "canCreatePublicChannelGroupId" INTEGER,
    "canCreateWebPublicChannelGroupId" INTEGER,
    "canCreateWriteOnlyBotsGroupId" INTEGER,
    "canDeleteAnyMessageGroupId" INTEGER,
    "canDeleteOwnMessageGroupId" INTEGER,
    "canInviteUsersGroupId" INTEGER,
    "canManageAllGroupsGroupId" INTEGER,
    "canManageBillingGroupId" INTEGER,
    "canMentionManyUsersGroupId" INTEGER,
    "canMoveMessagesBetweenChannelsGroupId" INTEGER,
    "canMoveMessagesBetweenTopicsGroupId" INTEGER,
    "canResolveTopicsGroupId" INTEGER,
    "canSetDeleteMessagePolicyGroupId" INTEGER,
    "canSetTopicsPolicyGroupId" INTEGER,
    "canSummarizeTopicsGroupId" INTEGER,
    "createMultiuseInviteGroupId" INTEGER,
    "directMessageInitiatorGroupId" INTEGER,
    "directMessagePermissionGroupId" INTEGER,

    CONSTRAINT "Realm_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "deliveryEmail" TEXT NOT NULL,
    "fullName" TEXT NOT NULL,
    "role" INTEGER NOT NULL DEFAULT 400,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "isBot" BOOLEAN NOT NULL DEFAULT false,
    "botType" INTEGER,
    "botOwnerId" INTEGER,
    "apiKey" TEXT NOT NULL,
    "passwordHash" TEXT,
    "dateJoined" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "timezone" TEXT NOT NULL DEFAULT '',
    "avatarSource" TEXT NOT NULL DEFAULT 'G',
    "avatarVersion" INTEGER NOT NULL DEFAULT 1,
    "isImported" BOOLEAN NOT NULL DEFAULT false,
    "canChangeUserEmails" BOOLEAN NOT NULL DEFAULT false,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "lastActivity" TIMESTAMP(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserGroup" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "name" TEXT,
    "description" TEXT NOT NULL DEFAULT '',
    "isSystemGroup" BOOLEAN NOT NULL DEFAULT false,
    "deactivated" BOOLEAN NOT NULL DEFAULT false,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "creatorId" INTEGER,
    "canAddMembersGroupId" INTEGER,
    "canJoinGroupId" INTEGER,
    "canLeaveGroupId" INTEGER,
    "canManageGroupId" INTEGER,
    "canMentionGroupId" INTEGER,
    "canRemoveMembersGroupId" INTEGER,

    CONSTRAINT "UserGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserGroupMember" (
    "groupId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "UserGroupMember_pkey" PRIMARY KEY ("groupId","userId")
);

-- CreateTable
CREATE TABLE "UserGroupSubgroup" (
    "supergroupId" INTEGER NOT NULL,
    "subgroupId" INTEGER NOT NULL,

    CONSTRAINT "UserGroupSubgroup_pkey" PRIMARY KEY ("supergroupId","subgroupId")
);

-- CreateTable
CREATE TABLE "ChannelFolder" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "renderedDescription" TEXT NOT NULL DEFAULT '',
    "order" INTEGER NOT NULL DEFAULT 0,
    "isArchived" BOOLEAN NOT NULL DEFAULT false,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "creatorId" INTEGER,

    CONSTRAINT "ChannelFolder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Channel" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "renderedDescription" TEXT NOT NULL DEFAULT '',
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "creatorId" INTEGER,
    "inviteOnly" BOOLEAN NOT NULL DEFAULT false,
    "isWebPublic" BOOLEAN NOT NULL DEFAULT false,
    "historyPublicToSubscribers" BOOLEAN NOT NULL DEFAULT true,
    "messageRetentionDays" INTEGER,
    "topicsPolicy" TEXT NOT NULL DEFAULT 'inherit',
    "isArchived" BOOLEAN NOT NULL DEFAULT false,
    "folderId" INTEGER,
    "firstMessageId" INTEGER,
    "isRecentlyActive" BOOLEAN NOT NULL DEFAULT true,
    "canAddSubscribersGroupId" INTEGER,
    "canAdministerChannelGroupId" INTEGER,
    "canDeleteAnyMessageGroupId" INTEGER,
    "canDeleteOwnMessageGroupId" INTEGER,
    "canMoveMessagesOutOfChannelGroupId" INTEGER,
    "canMoveMessagesWithinChannelGroupId" INTEGER,
    "canRemoveSubscribersGroupId" INTEGER,
    "canResolveTopicsGroupId" INTEGER,
    "canSendMessageGroupId" INTEGER,
    "canSubscribeGroupId" INTEGER,

    CONSTRAINT "Channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DefaultChannel" (
    "realmId" INTEGER NOT NULL,
    "channelId" INTEGER NOT NULL,

    CONSTRAINT "DefaultChannel_pkey" PRIMARY KEY ("realmId","channelId")
);

-- CreateTable
CREATE TABLE "Subscription" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "channelId" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "isUserActive" BOOLEAN NOT NULL DEFAULT true,
    "isMuted" BOOLEAN NOT NULL DEFAULT false,
    "pinToTop" BOOLEAN NOT NULL DEFAULT false,
    "color" TEXT NOT NULL DEFAULT '#c2c2c2',
    "desktopNotifications" BOOLEAN,
    "audibleNotifications" BOOLEAN,
    "pushNotifications" BOOLEAN,
    "emailNotifications" BOOLEAN,
    "wildcardMentionsNotify" BOOLEAN,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Subscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DirectConversation" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "participantKey" TEXT NOT NULL,

    CONSTRAINT "DirectConversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DirectConversationMember" (
    "conversationId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,

    CONSTRAINT "DirectConversationMember_pkey" PRIMARY KEY ("conversationId","userId")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "senderId" INTEGER NOT NULL,
    "channelId" INTEGER,
    "topic" TEXT NOT NULL DEFAULT '',
    "directConversationId" INTEGER,
    "content" TEXT NOT NULL,
    "renderedContent" TEXT NOT NULL,
    "dateSent" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sendingClient" TEXT NOT NULL DEFAULT 'API',
    "lastEditTime" TIMESTAMP(3),
    "lastMovedTime" TIMESTAMP(3),
    "editHistory" JSONB,
    "isMeMessage" BOOLEAN NOT NULL DEFAULT false,
    "hasLink" BOOLEAN NOT NULL DEFAULT false,
    "hasImage" BOOLEAN NOT NULL DEFAULT false,
    "hasAttachment" BOOLEAN NOT NULL DEFAULT false,
    "searchVector" tsvector,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserMessage" (
    "userId" INTEGER NOT NULL,
    "messageId" INTEGER NOT NULL,
    "read" BOOLEAN NOT NULL DEFAULT false,
    "starred" BOOLEAN NOT NULL DEFAULT false,
    "collapsed" BOOLEAN NOT NULL DEFAULT false,
    "mentioned" BOOLEAN NOT NULL DEFAULT false,
    "streamWildcardMentioned" BOOLEAN NOT NULL DEFAULT false,
    "topicWildcardMentioned" BOOLEAN NOT NULL DEFAULT false,
    "hasAlertWord" BOOLEAN NOT NULL DEFAULT false,
    "historical" BOOLEAN NOT NULL DEFAULT false,
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "UserMessage_pkey" PRIMARY KEY ("userId","messageId")
);

-- CreateTable
CREATE TABLE "Reaction" (
    "id" SERIAL NOT NULL,
    "messageId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "emojiName" TEXT NOT NULL,
    "emojiCode" TEXT NOT NULL,
    "reactionType" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Reaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserTopic" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "channelId" INTEGER NOT NULL,
    "topicName" TEXT NOT NULL,
    "visibilityPolicy" INTEGER NOT NULL,
    "lastUpdated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserTopic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserStatus" (
    "userId" INTEGER NOT NULL,
    "statusText" TEXT NOT NULL DEFAULT '',
    "emojiName" TEXT NOT NULL DEFAULT '',
    "emojiCode" TEXT NOT NULL DEFAULT '',
    "reactionType" TEXT NOT NULL DEFAULT 'unicode_emoji',
    "timestamp" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserStatus_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "UserPresence" (
    "userId" INTEGER NOT NULL,
    "realmId" INTEGER NOT NULL,
    "lastConnectedTime" TIMESTAMP(3),
    "lastActiveTime" TIMESTAMP(3),

    CONSTRAINT "UserPresence_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "CustomProfileField" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "hint" TEXT NOT NULL DEFAULT '',
    "fieldType" INTEGER NOT NULL,
    "fieldData" TEXT NOT NULL DEFAULT '',
    "order" INTEGER NOT NULL DEFAULT 0,
    "displayInProfileSummary" BOOLEAN NOT NULL DEFAULT false,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "editableByUser" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "CustomProfileField_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomProfileFieldValue" (
    "fieldId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "value" TEXT NOT NULL,
    "renderedValue" TEXT,

    CONSTRAINT "CustomProfileFieldValue_pkey" PRIMARY KEY ("userId","fieldId")
);

-- CreateTable
CREATE TABLE "ScheduledMessage" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "senderId" INTEGER NOT NULL,
    "channelId" INTEGER,
    "topic" TEXT,
    "directRecipientIds" INTEGER[],
    "content" TEXT NOT NULL,
    "renderedContent" TEXT NOT NULL,
    "scheduledTimestamp" TIMESTAMP(3) NOT NULL,
    "deliveryType" TEXT NOT NULL DEFAULT 'send_later',
    "delivered" BOOLEAN NOT NULL DEFAULT false,
    "deliveredMessageId" INTEGER,
    "failed" BOOLEAN NOT NULL DEFAULT false,
    "failureMessage" TEXT,
    "reminderTargetMessageId" INTEGER,
    "reminderNote" TEXT,
    "sendingClient" TEXT NOT NULL DEFAULT 'API',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScheduledMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NavigationView" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "fragment" TEXT NOT NULL,
    "isPinned" BOOLEAN NOT NULL,
    "name" TEXT,

    CONSTRAINT "NavigationView_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SavedSnippet" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SavedSnippet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Linkifier" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "pattern" TEXT NOT NULL,
    "urlTemplate" TEXT NOT NULL,
    "reverseTemplate" TEXT,
    "alternativeUrlTemplates" TEXT[],
    "exampleInput" TEXT,
    "order" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Linkifier_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RealmDomain" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "domain" TEXT NOT NULL,
    "allowSubdomains" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "RealmDomain_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomEmoji" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "authorId" INTEGER,
    "deactivated" BOOLEAN NOT NULL DEFAULT false,
    "fileName" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "isAnimated" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CustomEmoji_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Attachment" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "pathId" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Attachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PushDevice" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "deviceId" BIGINT NOT NULL,
    "pushKeyId" BIGINT,
    "pushKey" BYTEA,
    "tokenKind" TEXT,
    "tokenId" TEXT,
    "bouncerPublicKey" TEXT,
    "encryptedPushRegistration" TEXT,
    "lastUpdated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PushDevice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LegacyPushToken" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "appId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LegacyPushToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VideoProviderToken" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VideoProviderToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersistedEventQueue" (
    "id" TEXT NOT NULL,
    "realmId" INTEGER NOT NULL,
    "userId" INTEGER,
    "data" JSONB NOT NULL,
    "savedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PersistedEventQueue_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Realm_stringId_key" ON "Realm"("stringId");

-- CreateIndex
CREATE UNIQUE INDEX "User_apiKey_key" ON "User"("apiKey");

-- CreateIndex
CREATE INDEX "User_realmId_isActive_idx" ON "User"("realmId", "isActive");

-- CreateIndex
CREATE UNIQUE INDEX "User_realmId_email_key" ON "User"("realmId", "email");

-- CreateIndex
CREATE UNIQUE INDEX "UserGroup_realmId_name_key" ON "UserGroup"("realmId", "name");

-- CreateIndex
CREATE INDEX "UserGroupMember_userId_idx" ON "UserGroupMember"("userId");

-- CreateIndex
CREATE INDEX "UserGroupSubgroup_subgroupId_idx" ON "UserGroupSubgroup"("subgroupId");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelFolder_realmId_name_key" ON "ChannelFolder"("realmId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Channel_realmId_name_key" ON "Channel"("realmId", "name");

-- CreateIndex
CREATE INDEX "Subscription_channelId_active_idx" ON "Subscription"("channelId", "active");

-- CreateIndex
CREATE UNIQUE INDEX "Subscription_userId_channelId_key" ON "Subscription"("userId", "channelId");

-- CreateIndex
CREATE UNIQUE INDEX "DirectConversation_realmId_participantKey_key" ON "DirectConversation"("realmId", "participantKey");

-- CreateIndex
CREATE INDEX "DirectConversationMember_userId_idx" ON "DirectConversationMember"("userId");

-- CreateIndex
CREATE INDEX "Message_channelId_topic_id_idx" ON "Message"("channelId", "topic", "id");

-- CreateIndex
CREATE INDEX "Message_realmId_channelId_id_idx" ON "Message"("realmId", "channelId", "id");

-- CreateIndex
CREATE INDEX "Message_directConversationId_id_idx" ON "Message"("directConversationId", "id");

-- CreateIndex
CREATE INDEX "Message_senderId_id_idx" ON "Message"("senderId", "id");

-- CreateIndex
CREATE INDEX "Message_searchVector_idx" ON "Message" USING GIN ("searchVector");

-- CreateIndex
CREATE INDEX "UserMessage_messageId_idx" ON "UserMessage"("messageId");

-- CreateIndex
CREATE INDEX "UserMessage_userId_read_messageId_idx" ON "UserMessage"("userId", "read", "messageId");

-- CreateIndex
CREATE INDEX "UserMessage_userId_starred_messageId_idx" ON "UserMessage"("userId", "starred", "messageId");

-- CreateIndex
CREATE INDEX "UserMessage_userId_mentioned_messageId_idx" ON "UserMessage"("userId", "mentioned", "messageId");

-- CreateIndex
CREATE INDEX "UserMessage_userId_isPrivate_messageId_idx" ON "UserMessage"("userId", "isPrivate", "messageId");

-- CreateIndex
CREATE UNIQUE INDEX "Reaction_messageId_userId_emojiCode_reactionType_key" ON "Reaction"("messageId", "userId", "emojiCode", "reactionType");

-- CreateIndex
CREATE UNIQUE INDEX "UserTopic_userId_channelId_topicName_key" ON "UserTopic"("userId", "channelId", "topicName");

-- CreateIndex
CREATE INDEX "UserPresence_realmId_idx" ON "UserPresence"("realmId");

-- CreateIndex
CREATE UNIQUE INDEX "CustomProfileField_realmId_name_key" ON "CustomProfileField"("realmId", "name");

-- CreateIndex
CREATE INDEX "ScheduledMessage_delivered_failed_scheduledTimestamp_idx" ON "ScheduledMessage"("delivered", "failed", "scheduledTimestamp");

-- CreateIndex
CREATE INDEX "ScheduledMessage_senderId_deliveryType_idx" ON "ScheduledMessage"("senderId", "deliveryType");

-- CreateIndex
CREATE UNIQUE INDEX "NavigationView_userId_fragment_key" ON "NavigationView"("userId", "fragment");

-- CreateIndex
CREATE UNIQUE INDEX "Linkifier_realmId_pattern_key" ON "Linkifier"("realmId", "pattern");

-- CreateIndex
CREATE UNIQUE INDEX "RealmDomain_realmId_domain_key" ON "RealmDomain"("realmId", "domain");

-- CreateIndex
CREATE INDEX "CustomEmoji_realmId_name_idx" ON "CustomEmoji"("realmId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Attachment_pathId_key" ON "Attachment"("pathId");

-- CreateIndex
CREATE UNIQUE INDEX "PushDevice_userId_deviceId_key" ON "PushDevice"("userId", "deviceId");

-- CreateIndex
CREATE UNIQUE INDEX "LegacyPushToken_userId_kind_token_key" ON "LegacyPushToken"("userId", "kind", "token");

-- CreateIndex
CREATE UNIQUE INDEX "VideoProviderToken_userId_provider_key" ON "VideoProviderToken"("userId", "provider");

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_botOwnerId_fkey" FOREIGN KEY ("botOwnerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserGroup" ADD CONSTRAINT "UserGroup_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserGroupMember" ADD CONSTRAINT "UserGroupMember_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "UserGroup"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserGroupMember" ADD CONSTRAINT "UserGroupMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserGroupSubgroup" ADD CONSTRAINT "UserGroupSubgroup_supergroupId_fkey" FOREIGN KEY ("supergroupId") REFERENCES "UserGroup"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserGroupSubgroup" ADD CONSTRAINT "UserGroupSubgroup_subgroupId_fkey" FOREIGN KEY ("subgroupId") REFERENCES "UserGroup"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChannelFolder" ADD CONSTRAINT "ChannelFolder_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Channel" ADD CONSTRAINT "Channel_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Channel" ADD CONSTRAINT "Channel_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "ChannelFolder"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DefaultChannel" ADD CONSTRAINT "DefaultChannel_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DefaultChannel" ADD CONSTRAINT "DefaultChannel_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DirectConversation" ADD CONSTRAINT "DirectConversation_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DirectConversationMember" ADD CONSTRAINT "DirectConversationMember_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "DirectConversation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DirectConversationMember" ADD CONSTRAINT "DirectConversationMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_directConversationId_fkey" FOREIGN KEY ("directConversationId") REFERENCES "DirectConversation"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserMessage" ADD CONSTRAINT "UserMessage_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserMessage" ADD CONSTRAINT "UserMessage_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Reaction" ADD CONSTRAINT "Reaction_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Reaction" ADD CONSTRAINT "Reaction_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserTopic" ADD CONSTRAINT "UserTopic_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserTopic" ADD CONSTRAINT "UserTopic_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserStatus" ADD CONSTRAINT "UserStatus_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserPresence" ADD CONSTRAINT "UserPresence_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomProfileField" ADD CONSTRAINT "CustomProfileField_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomProfileFieldValue" ADD CONSTRAINT "CustomProfileFieldValue_fieldId_fkey" FOREIGN KEY ("fieldId") REFERENCES "CustomProfileField"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomProfileFieldValue" ADD CONSTRAINT "CustomProfileFieldValue_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduledMessage" ADD CONSTRAINT "ScheduledMessage_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduledMessage" ADD CONSTRAINT "ScheduledMessage_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduledMessage" ADD CONSTRAINT "ScheduledMessage_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NavigationView" ADD CONSTRAINT "NavigationView_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SavedSnippet" ADD CONSTRAINT "SavedSnippet_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Linkifier" ADD CONSTRAINT "Linkifier_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RealmDomain" ADD CONSTRAINT "RealmDomain_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomEmoji" ADD CONSTRAINT "CustomEmoji_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomEmoji" ADD CONSTRAINT "CustomEmoji_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PushDevice" ADD CONSTRAINT "PushDevice_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LegacyPushToken" ADD CONSTRAINT "LegacyPushToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VideoProviderToken" ADD CONSTRAINT "VideoProviderToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Full-text search over topic and content. Prisma cannot declare generated columns, so the schema
-- has the column as Unsupported("tsvector") and it is redefined here as generated from the message
-- (the GIN index on it is declared in the schema). No semicolons in these comments: the schema
-- engine splits scripts on them.
DROP INDEX "Message_searchVector_idx";
ALTER TABLE "Message" DROP COLUMN "searchVector";
ALTER TABLE "Message" ADD COLUMN "searchVector" tsvector
  GENERATED ALWAYS AS (to_tsvector('english', coalesce("topic", '') || ' ' || coalesce("content", ''))) STORED;
CREATE INDEX "Message_searchVector_idx" ON "Message" USING GIN ("searchVector");

-- Topic narrows compare case-insensitively (as Zulip does), and this expression index serves them.
CREATE INDEX "Message_channelId_lower_topic_id_idx" ON "Message" ("channelId", lower("topic"), "id");
